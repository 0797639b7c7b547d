package dev.spool.broker.security.acl;

/**
 * Immutable. One ACL: {@code permission} of {@code operation} on the resources {@code resourceType}
 * {@code resourceName} names under {@code patternType}, for {@code principal} ({@code User:alice}, or
 * {@code User:*} for everyone) connecting from {@code host} (an address, or {@code *} for any).
 */
public record AclBinding(ResourceType resourceType, String resourceName, PatternType patternType, String principal,
                         String host, AclOperation operation, AclPermission permission) {

    /** The name that makes a LITERAL ACL match every resource of its type. */
    public static final String WILDCARD = "*";
    /** The principal that makes an ACL match every principal. */
    public static final String ANY_USER = "User:*";

    /** Whether this ACL is about {@code principal} connecting from {@code clientHost}. */
    boolean appliesTo(String principal, String clientHost) {
        return (this.principal.equals(principal) || this.principal.equals(ANY_USER))
                && (host.equals(WILDCARD) || host.equals(clientHost));
    }
}
