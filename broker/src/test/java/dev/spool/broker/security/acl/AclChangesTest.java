package dev.spool.broker.security.acl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataSnapshot;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreateAclsRequestData;
import dev.spool.protocol.message.CreateAclsRequestData.AclCreation;
import dev.spool.protocol.message.CreateAclsResponseData.AclCreationResult;
import dev.spool.protocol.message.DeleteAclsRequestData;
import dev.spool.protocol.message.DeleteAclsRequestData.DeleteAclsFilter;
import dev.spool.protocol.message.DeleteAclsResponseData.DeleteAclsFilterResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CreateAcls and DeleteAcls as the controller decides them, applied to an image and kept in a snapshot. */
class AclChangesTest {

    @TempDir
    Path dir;

    private static AclCreation creation(ResourceType type, String name, PatternType pattern, String principal,
                                        AclOperation operation) {
        return new AclCreation().setResourceType(type.code).setResourceName(name).setResourcePatternType(pattern.code)
                .setPrincipal(principal).setHost("*").setOperation(operation.code)
                .setPermissionType(AclPermission.ALLOW.code);
    }

    private static <T> MetadataImage applied(MetadataImage image, MetadataChange<T> change) {
        return image.apply(change.records(), image.offset() + change.records().size());
    }

    @Test
    void createdAclsAreInTheImageOnceAndInvalidOnesAreRefused() throws Exception {
        CreateAclsRequestData request = new CreateAclsRequestData().setCreations(List.of(
                creation(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice", AclOperation.READ),
                creation(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice", AclOperation.READ),
                creation(ResourceType.ANY, "orders", PatternType.LITERAL, "User:alice", AclOperation.READ),
                creation(ResourceType.TOPIC, "orders", PatternType.MATCH, "User:alice", AclOperation.READ),
                creation(ResourceType.TOPIC, "orders", PatternType.LITERAL, "alice", AclOperation.READ),
                creation(ResourceType.GROUP, "g", PatternType.PREFIXED, "User:alice", AclOperation.ANY)));
        MetadataChange<List<AclCreationResult>> change = AclChanges.create(MetadataImage.EMPTY, request);
        assertThat(change.result()).extracting(AclCreationResult::errorCode).containsExactly(Errors.NONE.code(),
                Errors.NONE.code(), Errors.INVALID_REQUEST.code(), Errors.INVALID_REQUEST.code(),
                Errors.INVALID_REQUEST.code(), Errors.INVALID_REQUEST.code());
        MetadataImage image = applied(MetadataImage.EMPTY, change);
        assertThat(image.acls().values()).containsExactly(new AclBinding(ResourceType.TOPIC, "orders",
                PatternType.LITERAL, "User:alice", "*", AclOperation.READ, AclPermission.ALLOW));
        assertThat(AclChanges.create(image, request).records()).isEmpty();

        Path snapshot = MetadataSnapshot.write(dir, image, 0L);
        assertThat(MetadataSnapshot.load(snapshot).acls()).isEqualTo(image.acls());
    }

    @Test
    void deleteFiltersRemoveWhatTheyMatchAndListItInEachResult() {
        MetadataImage image = applied(MetadataImage.EMPTY, AclChanges.create(MetadataImage.EMPTY,
                new CreateAclsRequestData().setCreations(List.of(
                        creation(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice", AclOperation.READ),
                        creation(ResourceType.TOPIC, "ord", PatternType.PREFIXED, "User:bob", AclOperation.WRITE),
                        creation(ResourceType.GROUP, "g", PatternType.LITERAL, "User:alice", AclOperation.READ)))));
        DeleteAclsFilter matchOrders = new DeleteAclsFilter().setResourceTypeFilter(ResourceType.TOPIC.code)
                .setResourceNameFilter("orders").setPatternTypeFilter(PatternType.MATCH.code).setPrincipalFilter(null)
                .setHostFilter(null)
                .setOperation(AclOperation.ANY.code).setPermissionType(AclPermission.ANY.code);
        DeleteAclsFilter alice = new DeleteAclsFilter().setResourceTypeFilter(ResourceType.ANY.code)
                .setResourceNameFilter(null).setHostFilter(null)
                .setPatternTypeFilter(PatternType.ANY.code).setPrincipalFilter("User:alice")
                .setOperation(AclOperation.ANY.code).setPermissionType(AclPermission.ANY.code);
        DeleteAclsFilter unknown = new DeleteAclsFilter().setResourceTypeFilter((byte) 42)
                .setPatternTypeFilter(PatternType.ANY.code).setOperation(AclOperation.ANY.code)
                .setPermissionType(AclPermission.ANY.code);
        MetadataChange<List<DeleteAclsFilterResult>> change = AclChanges.delete(image,
                new DeleteAclsRequestData().setFilters(List.of(matchOrders, alice, unknown)));
        assertThat(change.result().get(0).matchingAcls()).hasSize(2);
        assertThat(change.result().get(1).matchingAcls()).hasSize(2);
        assertThat(change.result().get(2).errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(change.records()).hasSize(3);
        assertThat(applied(image, change).acls()).isEmpty();
    }
}
