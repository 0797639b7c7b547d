package dev.spool.broker.security.acl;

import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreateAclsRequestData;
import dev.spool.protocol.message.CreateAclsRequestData.AclCreation;
import dev.spool.protocol.message.CreateAclsResponseData.AclCreationResult;
import dev.spool.protocol.message.DeleteAclsRequestData;
import dev.spool.protocol.message.DeleteAclsRequestData.DeleteAclsFilter;
import dev.spool.protocol.message.DeleteAclsResponseData.DeleteAclsFilterResult;
import dev.spool.protocol.message.DeleteAclsResponseData.DeleteAclsMatchingAcl;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.RemoveAccessControlEntryRecordData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CreateAcls and DeleteAcls on the active controller, as Kafka's controller decides them. Each creation is checked
 * (a concrete resource type, LITERAL or PREFIXED, a concrete operation and permission, a {@code Type:name}
 * principal, a host, a resource name) and becomes an AccessControlEntryRecord with a new id; one equal to an ACL
 * that exists succeeds without a record. Each deletion filter removes every ACL it matches (RemoveAccessControl-
 * EntryRecords) and lists them, an ACL two filters match in both results; a filter with an unknown code is refused. Stateless.
 */
public final class AclChanges {

    private AclChanges() {
    }

    public static MetadataChange<List<AclCreationResult>> create(MetadataImage image, CreateAclsRequestData request) {
        Set<AclBinding> existing = new HashSet<>(image.acls().values());
        List<VersionedRecord> records = new ArrayList<>();
        List<AclCreationResult> results = new ArrayList<>();
        for (AclCreation creation : request.creations()) {
            AclBinding acl = new AclBinding(ResourceType.forCode(creation.resourceType()), creation.resourceName(),
                    PatternType.forCode(creation.resourcePatternType()), creation.principal(), creation.host(),
                    AclOperation.forCode(creation.operation()), AclPermission.forCode(creation.permissionType()));
            String problem = problemOf(acl);
            if (problem != null) {
                results.add(new AclCreationResult().setErrorCode(Errors.INVALID_REQUEST.code())
                        .setErrorMessage(problem));
                continue;
            }
            if (existing.add(acl)) {
                records.add(VersionedRecord.of(MetadataRecordType.ACCESS_CONTROL_ENTRY_RECORD,
                        AclRecords.recordOf(Uuid.randomUuid(), acl)));
            }
            results.add(new AclCreationResult().setErrorCode(Errors.NONE.code()));
        }
        return new MetadataChange<>(records, results);
    }

    /** Why Kafka would refuse to store this ACL, or null. */
    private static String problemOf(AclBinding acl) {
        if (acl.resourceType() == ResourceType.UNKNOWN || acl.resourceType() == ResourceType.ANY) {
            return "Invalid resourceType " + acl.resourceType();
        }
        if (acl.patternType() != PatternType.LITERAL && acl.patternType() != PatternType.PREFIXED) {
            return "Invalid patternType " + acl.patternType();
        }
        if (acl.operation() == AclOperation.UNKNOWN || acl.operation() == AclOperation.ANY) {
            return "Invalid operation " + acl.operation();
        }
        if (acl.permission() != AclPermission.ALLOW && acl.permission() != AclPermission.DENY) {
            return "Invalid permissionType " + acl.permission();
        }
        if (acl.resourceName() == null || acl.resourceName().isEmpty()) {
            return "Resource name should not be empty";
        }
        if (acl.principal() == null || acl.principal().indexOf(':') <= 0) {
            return "Invalid principal " + acl.principal() + ": expected Type:name";
        }
        if (acl.host() == null || acl.host().isEmpty()) {
            return "Invalid null host";
        }
        return null;
    }

    public static MetadataChange<List<DeleteAclsFilterResult>> delete(MetadataImage image,
                                                                      DeleteAclsRequestData request) {
        Set<Uuid> removed = new HashSet<>();
        List<VersionedRecord> records = new ArrayList<>();
        List<DeleteAclsFilterResult> results = new ArrayList<>();
        for (DeleteAclsFilter wire : request.filters()) {
            AclFilter filter = new AclFilter(ResourceType.forCode(wire.resourceTypeFilter()),
                    wire.resourceNameFilter(), PatternType.forCode(wire.patternTypeFilter()), wire.principalFilter(),
                    wire.hostFilter(), AclOperation.forCode(wire.operation()),
                    AclPermission.forCode(wire.permissionType()));
            if (filter.hasUnknown()) {
                results.add(new DeleteAclsFilterResult().setErrorCode(Errors.INVALID_REQUEST.code())
                        .setErrorMessage("Unknown resource type, pattern type, operation or permission in the filter")
                        .setMatchingAcls(new ArrayList<>()));
                continue;
            }
            List<DeleteAclsMatchingAcl> matching = new ArrayList<>();
            for (Map.Entry<Uuid, AclBinding> entry : image.acls().entrySet()) {
                AclBinding acl = entry.getValue();
                if (!filter.matches(acl)) {
                    continue;
                }
                if (removed.add(entry.getKey())) {
                    records.add(VersionedRecord.of(MetadataRecordType.REMOVE_ACCESS_CONTROL_ENTRY_RECORD,
                            new RemoveAccessControlEntryRecordData().setId(entry.getKey())));
                }
                matching.add(new DeleteAclsMatchingAcl().setErrorCode(Errors.NONE.code())
                        .setResourceType(acl.resourceType().code).setResourceName(acl.resourceName())
                        .setPatternType(acl.patternType().code).setPrincipal(acl.principal()).setHost(acl.host())
                        .setOperation(acl.operation().code).setPermissionType(acl.permission().code));
            }
            results.add(new DeleteAclsFilterResult().setErrorCode(Errors.NONE.code()).setMatchingAcls(matching));
        }
        return new MetadataChange<>(records, results);
    }
}
