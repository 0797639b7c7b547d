package dev.spool.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataSnapshot;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterClientQuotasRequestData;
import dev.spool.protocol.message.AlterClientQuotasRequestData.EntityData;
import dev.spool.protocol.message.AlterClientQuotasRequestData.EntryData;
import dev.spool.protocol.message.AlterClientQuotasRequestData.OpData;
import dev.spool.protocol.message.AlterClientQuotasResponseData;
import dev.spool.protocol.message.DescribeClientQuotasRequestData;
import dev.spool.protocol.message.DescribeClientQuotasRequestData.ComponentData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AlterClientQuotas as the controller decides it, applied to an image, kept in a snapshot, and filtered. */
class ClientQuotaChangesTest {

    @TempDir
    Path dir;

    private static EntryData entry(List<EntityData> entity, OpData... ops) {
        return new EntryData().setEntity(entity).setOps(List.of(ops));
    }

    private static List<EntityData> entity(String... typesAndNames) {
        List<EntityData> parts = new ArrayList<>();
        for (int i = 0; i < typesAndNames.length; i += 2) {
            parts.add(new EntityData().setEntityType(typesAndNames[i]).setEntityName(typesAndNames[i + 1]));
        }
        return parts;
    }

    private static OpData set(String key, double value) {
        return new OpData().setKey(key).setValue(value);
    }

    private static OpData remove(String key) {
        return new OpData().setKey(key).setRemove(true);
    }

    private static MetadataImage alter(MetadataImage image, List<Short> errors, EntryData... entries) {
        MetadataChange<List<AlterClientQuotasResponseData.EntryData>> change = ClientQuotaChanges.alter(image,
                new AlterClientQuotasRequestData().setEntries(List.of(entries)));
        change.result().forEach(result -> errors.add(result.errorCode()));
        return image.apply(change.records(), image.offset() + change.records().size());
    }

    @Test
    void validQuotasAreStoredAndInvalidEntriesChangeNothing() throws Exception {
        List<Short> errors = new ArrayList<>();
        MetadataImage image = alter(MetadataImage.EMPTY, errors,
                entry(entity("user", "alice", "client-id", null), set("producer_byte_rate", 1024),
                        set("request_percentage", 12.5)),
                entry(entity("client-id", null), set("consumer_byte_rate", 2048)),
                entry(entity("ip", "127.0.0.1"), set("connection_creation_rate", 10)),
                entry(entity("user", "bob"), set("producer_byte_rate", 1.5)),
                entry(entity("user", "bob"), set("consumer_byte_rate", 100), set("connection_creation_rate", 5)),
                entry(entity("ip", "127.0.0.1", "user", "bob"), set("connection_creation_rate", 5)),
                entry(entity("user", "bob", "user", "carol"), set("producer_byte_rate", 5)),
                entry(entity("group", "g"), set("producer_byte_rate", 5)),
                entry(entity(), set("producer_byte_rate", 5)),
                entry(entity("user", "bob"), set("no_such_quota", 5)),
                entry(entity("user", "bob"), set("producer_byte_rate", -1)),
                entry(entity("user", "bob"), set("producer_byte_rate", 1e300)),
                entry(entity("user", "bob"), set("producer_byte_rate", 5), set("producer_byte_rate", 6)),
                entry(entity("client-id", null), set("producer_byte_rate", 5)),
                entry(entity("user", "carol"), remove("no_such_quota")));
        short invalid = Errors.INVALID_REQUEST.code();
        assertThat(errors).containsExactly(Errors.NONE.code(), Errors.NONE.code(), Errors.NONE.code(), invalid,
                invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid,
                Errors.NONE.code());
        assertThat(image.clientQuotas()).containsOnly(
                Map.entry(QuotaEntity.userAndClient("alice", null),
                        Map.of("producer_byte_rate", 1024.0, "request_percentage", 12.5)),
                Map.entry(QuotaEntity.of(QuotaEntity.CLIENT_ID, null), Map.of("consumer_byte_rate", 2048.0)),
                Map.entry(QuotaEntity.of(QuotaEntity.IP, "127.0.0.1"), Map.of("connection_creation_rate", 10.0)));

        MetadataImage removed = alter(image, errors, entry(entity("client-id", null), remove("consumer_byte_rate")),
                entry(entity("user", "alice", "client-id", null), remove("request_percentage")));
        assertThat(removed.clientQuotas()).doesNotContainKey(QuotaEntity.of(QuotaEntity.CLIENT_ID, null))
                .containsEntry(QuotaEntity.userAndClient("alice", null), Map.of("producer_byte_rate", 1024.0));

        Path snapshot = MetadataSnapshot.write(dir, removed, 0L);
        assertThat(MetadataSnapshot.load(snapshot).clientQuotas()).isEqualTo(removed.clientQuotas());
    }

    @Test
    void validateOnlyAndUnchangedValuesWriteNoRecord() {
        List<Short> errors = new ArrayList<>();
        MetadataImage image = alter(MetadataImage.EMPTY, errors,
                entry(entity("user", "alice"), set("producer_byte_rate", 1024)));
        assertThat(ClientQuotaChanges.alter(image, new AlterClientQuotasRequestData().setEntries(List.of(
                entry(entity("user", "alice"), set("producer_byte_rate", 1024), remove("consumer_byte_rate")))))
                .records()).isEmpty();
        assertThat(ClientQuotaChanges.alter(image, new AlterClientQuotasRequestData().setValidateOnly(true)
                .setEntries(List.of(entry(entity("user", "bob"), set("producer_byte_rate", 1))))).records()).isEmpty();
    }

    @Test
    void describeFiltersMatchExactDefaultAndAnyNames() {
        List<QuotaEntity> entities = List.of(QuotaEntity.of(QuotaEntity.USER, "alice"),
                QuotaEntity.of(QuotaEntity.USER, null), QuotaEntity.userAndClient("alice", "app"),
                QuotaEntity.of(QuotaEntity.CLIENT_ID, "app"), QuotaEntity.of(QuotaEntity.IP, "10.0.0.1"));
        assertThat(matching(entities, false, component("user", 0, "alice")))
                .containsExactly(entities.get(0), entities.get(2));
        assertThat(matching(entities, true, component("user", 0, "alice"))).containsExactly(entities.get(0));
        assertThat(matching(entities, false, component("user", 1, null))).containsExactly(entities.get(1));
        assertThat(matching(entities, true, component("user", 2, null)))
                .containsExactly(entities.get(0), entities.get(1));
        assertThat(matching(entities, false, component("client-id", 2, null), component("user", 2, null)))
                .containsExactly(entities.get(2));
        assertThat(matching(entities, false)).containsExactlyElementsOf(entities);
        assertThat(refusal(component("group", 2, null))).isEqualTo(Errors.UNSUPPORTED_VERSION);
        assertThat(refusal(component("user", 1, "alice"))).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(refusal(component("user", 0, null))).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(refusal(component("user", 2, null), component("user", 0, "bob"))).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(refusal(component("ip", 2, null), component("user", 2, null))).isEqualTo(Errors.INVALID_REQUEST);
    }

    private static Errors refusal(ComponentData... filter) {
        try {
            ClientQuotaFilter.of(new DescribeClientQuotasRequestData().setComponents(List.of(filter)));
            return Errors.NONE;
        } catch (ClientQuotaFilter.InvalidFilterException e) {
            return e.error;
        }
    }

    private static ComponentData component(String type, int matchType, String match) {
        return new ComponentData().setEntityType(type).setMatchType((byte) matchType).setMatch(match);
    }

    private static List<QuotaEntity> matching(List<QuotaEntity> entities, boolean strict, ComponentData... filter) {
        ClientQuotaFilter quotaFilter = ClientQuotaFilter.of(new DescribeClientQuotasRequestData()
                .setComponents(List.of(filter)).setStrict(strict));
        return entities.stream().filter(quotaFilter::matches).toList();
    }
}
