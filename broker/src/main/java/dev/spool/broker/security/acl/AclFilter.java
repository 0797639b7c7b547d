package dev.spool.broker.security.acl;

/**
 * Immutable. Which ACLs a DescribeAcls or DeleteAcls filter selects, as Kafka matches an AclBindingFilter: the type
 * ANY, pattern type ANY and a null name, principal or host select everything on that field; pattern type MATCH selects
 * every ACL that would apply to the resource named (the literal one, the wildcard, the prefixes of the name).
 */
public record AclFilter(ResourceType resourceType, String resourceName, PatternType patternType, String principal,
                        String host, AclOperation operation, AclPermission permission) {

    /** Whether a field is UNKNOWN (a code this broker does not know): Kafka refuses such a filter. */
    public boolean hasUnknown() {
        return resourceType == ResourceType.UNKNOWN || patternType == PatternType.UNKNOWN
                || operation == AclOperation.UNKNOWN || permission == AclPermission.UNKNOWN;
    }

    public boolean matches(AclBinding acl) {
        return matchesResource(acl) && (principal == null || principal.equals(acl.principal()))
                && (host == null || host.equals(acl.host()))
                && (operation == AclOperation.ANY || operation == acl.operation())
                && (permission == AclPermission.ANY || permission == acl.permission());
    }

    private boolean matchesResource(AclBinding acl) {
        if (resourceType != ResourceType.ANY && resourceType != acl.resourceType()) {
            return false;
        }
        if (patternType != PatternType.ANY && patternType != PatternType.MATCH && patternType != acl.patternType()) {
            return false;
        }
        if (resourceName == null) {
            return true;
        }
        if (patternType != PatternType.MATCH) {
            return resourceName.equals(acl.resourceName());
        }
        return switch (acl.patternType()) {
            case LITERAL -> resourceName.equals(acl.resourceName()) || acl.resourceName().equals(AclBinding.WILDCARD);
            case PREFIXED -> resourceName.startsWith(acl.resourceName());
            default -> false;
        };
    }
}
