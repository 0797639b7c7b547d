package dev.spool.broker.security.acl;

import dev.spool.protocol.metadata.AccessControlEntryRecordData;
import dev.spool.protocol.types.Uuid;

/** An ACL as the metadata log keeps it, an AccessControlEntryRecord, and back. Stateless. */
public final class AclRecords {

    private AclRecords() {
    }

    public static AccessControlEntryRecordData recordOf(Uuid id, AclBinding acl) {
        return new AccessControlEntryRecordData().setId(id).setResourceType(acl.resourceType().code)
                .setResourceName(acl.resourceName()).setPatternType(acl.patternType().code)
                .setPrincipal(acl.principal()).setHost(acl.host()).setOperation(acl.operation().code)
                .setPermissionType(acl.permission().code);
    }

    public static AclBinding bindingOf(AccessControlEntryRecordData record) {
        return new AclBinding(ResourceType.forCode(record.resourceType()), record.resourceName(),
                PatternType.forCode(record.patternType()), record.principal(), record.host(),
                AclOperation.forCode(record.operation()), AclPermission.forCode(record.permissionType()));
    }
}
