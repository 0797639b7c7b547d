package dev.spool.broker.config;

import static dev.spool.broker.config.ConfigTestImages.applied;
import static dev.spool.broker.config.ConfigTestImages.withConfig;
import static dev.spool.broker.config.ConfigTestImages.withTopic;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.config.ConfigController.Outcome;
import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.log.LogConfig;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterConfigsRequestData;
import dev.spool.protocol.message.IncrementalAlterConfigsRequestData;
import dev.spool.protocol.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import dev.spool.protocol.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import dev.spool.protocol.metadata.ConfigRecordData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigControllerTest {

    private static final ConfigResource ORDERS = ConfigResource.topic("orders");

    /** The validator Broker wires in: the log module's parser over the defaults. */
    private final ConfigController controller = new ConfigController(1, overrides -> {
        try {
            LogConfig.defaults().with(overrides);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    });
    private final MetadataImage image = withConfig(withTopic(MetadataImage.EMPTY, "orders"), ORDERS, "retention.ms",
            "1000");

    private static AlterableConfig op(String name, byte operation, String value) {
        return new AlterableConfig().setName(name).setConfigOperation(operation).setValue(value);
    }

    private MetadataChange<List<Outcome>> incremental(MetadataImage in, byte type, String name, boolean validateOnly,
                                                      AlterableConfig... ops) {
        IncrementalAlterConfigsRequestData request = new IncrementalAlterConfigsRequestData()
                .setValidateOnly(validateOnly).setResources(new ArrayList<>(List.of(new AlterConfigsResource()
                        .setResourceType(type).setResourceName(name).setConfigs(new ArrayList<>(List.of(ops))))));
        return controller.incrementalAlter(in, request);
    }

    @Test
    void setAndDeleteBecomeConfigRecords() {
        MetadataChange<List<Outcome>> change = incremental(image, ConfigResource.TOPIC, "orders", false,
                op("segment.bytes", ConfigController.SET, "1048576"), op("retention.ms", ConfigController.DELETE, null));

        assertThat(change.result()).singleElement().extracting(Outcome::error).isEqualTo(Errors.NONE);
        assertThat(change.records()).extracting(record -> ((ConfigRecordData) record.data()).name())
                .containsExactlyInAnyOrder("segment.bytes", "retention.ms");
        assertThat(applied(image, change).configs(ORDERS)).isEqualTo(Map.of("segment.bytes", "1048576"));
    }

    @Test
    void appendAndSubtractEditAListStartingFromItsDefault() {
        MetadataImage appended = applied(image, incremental(image, ConfigResource.TOPIC, "orders", false,
                op("cleanup.policy", ConfigController.APPEND, "compact")));
        assertThat(appended.configs(ORDERS)).containsEntry("cleanup.policy", "delete,compact");

        MetadataImage subtracted = applied(appended, incremental(appended, ConfigResource.TOPIC, "orders", false,
                op("cleanup.policy", ConfigController.SUBTRACT, "delete")));
        assertThat(subtracted.configs(ORDERS)).containsEntry("cleanup.policy", "compact");
    }

    @Test
    void appendToANonListIsInvalidConfig() {
        MetadataChange<List<Outcome>> change = incremental(image, ConfigResource.TOPIC, "orders", false,
                op("retention.ms", ConfigController.APPEND, "5"));

        assertThat(change.result().get(0).error()).isEqualTo(Errors.INVALID_CONFIG);
        assertThat(change.result().get(0).message()).isEqualTo("Can't APPEND to key retention.ms because its type is not LIST.");
        assertThat(change.records()).isEmpty();
    }

    @Test
    void invalidValuesAndUnknownNamesAreInvalidConfigNamingTheProblem() {
        Outcome badValue = incremental(image, ConfigResource.TOPIC, "orders", false,
                op("retention.ms", ConfigController.SET, "soon")).result().get(0);
        assertThat(badValue.error()).isEqualTo(Errors.INVALID_CONFIG);
        assertThat(badValue.message()).contains("retention.ms").contains("soon");

        Outcome badType = incremental(image, ConfigResource.TOPIC, "orders", false,
                op("message.timestamp.type", ConfigController.SET, "Whenever")).result().get(0);
        assertThat(badType.error()).isEqualTo(Errors.INVALID_CONFIG);
        assertThat(badType.message()).contains("message.timestamp.type");

        Outcome unknown = incremental(image, ConfigResource.TOPIC, "orders", false,
                op("retention.weeks", ConfigController.SET, "2")).result().get(0);
        assertThat(unknown.error()).isEqualTo(Errors.INVALID_CONFIG);
        assertThat(unknown.message()).isEqualTo("Unknown topic config name: retention.weeks");
    }

    @Test
    void validateOnlyWritesNothing() {
        MetadataChange<List<Outcome>> change = incremental(image, ConfigResource.TOPIC, "orders", true,
                op("segment.bytes", ConfigController.SET, "1048576"));

        assertThat(change.result().get(0).error()).isEqualTo(Errors.NONE);
        assertThat(change.records()).isEmpty();
    }

    @Test
    void unknownTopicAndDuplicateKeysAreRejected() {
        assertThat(incremental(image, ConfigResource.TOPIC, "missing", false,
                op("retention.ms", ConfigController.SET, "5")).result().get(0).error())
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(incremental(image, ConfigResource.TOPIC, "orders", false,
                op("retention.ms", ConfigController.SET, "5"), op("retention.ms", ConfigController.DELETE, null))
                .result().get(0).error()).isEqualTo(Errors.INVALID_REQUEST);
    }

    @Test
    void legacyAlterReplacesEveryOverride() {
        AlterConfigsRequestData request = new AlterConfigsRequestData().setResources(new ArrayList<>(List.of(
                new AlterConfigsRequestData.AlterConfigsResource().setResourceType(ConfigResource.TOPIC)
                        .setResourceName("orders").setConfigs(new ArrayList<>(List.of(
                                new AlterConfigsRequestData.AlterableConfig().setName("retention.bytes")
                                        .setValue("100000")))))));

        MetadataChange<List<Outcome>> change = controller.alter(image, request);

        assertThat(change.result().get(0).error()).isEqualTo(Errors.NONE);
        assertThat(applied(image, change).configs(ORDERS)).isEqualTo(Map.of("retention.bytes", "100000"));
    }

    @Test
    void brokerTakesOnlyDynamicLogDefaults() {
        MetadataChange<List<Outcome>> set = incremental(image, ConfigResource.BROKER, "1", false,
                op("log.retention.ms", ConfigController.SET, "7200000"));
        assertThat(set.result().get(0).error()).isEqualTo(Errors.NONE);
        assertThat(applied(image, set).configs(new ConfigResource(ConfigResource.BROKER, "1")))
                .isEqualTo(Map.of("log.retention.ms", "7200000"));

        Outcome staticOnly = incremental(image, ConfigResource.BROKER, "", false,
                op("num.partitions", ConfigController.SET, "3"), op("log.retention.hours", ConfigController.SET, "3"))
                .result().get(0);
        assertThat(staticOnly.error()).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(staticOnly.message())
                .isEqualTo("Cannot update these configs dynamically: [log.retention.hours, num.partitions]");

        Outcome badValue = incremental(image, ConfigResource.BROKER, "1", false,
                op("log.segment.bytes", ConfigController.SET, "big")).result().get(0);
        assertThat(badValue.error()).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(badValue.message()).startsWith("Invalid value big for configuration log.segment.bytes");

        Outcome badCodec = incremental(image, ConfigResource.BROKER, "1", false,
                op("compression.type", ConfigController.SET, "none")).result().get(0);
        assertThat(badCodec.message()).isEqualTo("Invalid value none for configuration compression.type: String must "
                + "be one of: uncompressed, zstd, lz4, snappy, gzip, producer");

        assertThat(incremental(image, ConfigResource.BROKER, "7", false,
                op("log.retention.ms", ConfigController.SET, "1")).result().get(0).error())
                .isEqualTo(Errors.INVALID_REQUEST);
    }
}
