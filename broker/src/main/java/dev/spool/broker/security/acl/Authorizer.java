package dev.spool.broker.security.acl;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.protocol.types.Uuid;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The broker's access control: off (no {@code authorizer.class.name}: everyone may do everything, and the ACL APIs
 * answer SECURITY_DISABLED, as Kafka's), or Kafka's StandardAuthorizer over the ACLs of the current metadata image.
 * The decision core is rebuilt when the image's ACLs change (a new map), not per request. Thread-safe.
 */
public final class Authorizer {

    /** The one {@code authorizer.class.name} Spool honours: Kafka's KRaft authorizer, ACLs in the metadata log. */
    public static final String STANDARD_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";
    public static final Authorizer DISABLED = new Authorizer(null, Set.of(), false);

    /** The decision core of one ACL map. */
    private record Built(Map<Uuid, AclBinding> acls, AclAuthorizer core) {
    }

    private final Supplier<MetadataImage> image;
    private final Set<String> superUsers;
    private final boolean allowIfNoAcl;
    private volatile Built built;

    private Authorizer(Supplier<MetadataImage> image, Set<String> superUsers, boolean allowIfNoAcl) {
        this.image = image;
        this.superUsers = Set.copyOf(superUsers);
        this.allowIfNoAcl = allowIfNoAcl;
    }

    /** StandardAuthorizer over {@code image}'s ACLs, with {@code super.users} and allow.everyone.if.no.acl.found. */
    public static Authorizer standard(Supplier<MetadataImage> image, Set<String> superUsers, boolean allowIfNoAcl) {
        return new Authorizer(image, superUsers, allowIfNoAcl);
    }

    public boolean enabled() {
        return image != null;
    }

    /** Whether {@code principal} ({@code User:alice}) from {@code host} may {@code operation} the resource. */
    public boolean authorize(String principal, String host, AclOperation operation, ResourceType type, String name) {
        return image == null || core().authorize(principal, host, operation, type, name);
    }

    /** Whether {@code principal} may {@code operation} some resource of {@code type} (KIP-679). */
    public boolean authorizeAny(String principal, String host, AclOperation operation, ResourceType type) {
        return image == null || core().authorizeAny(principal, host, operation, type);
    }

    /** Whether {@code principal} is one of {@code super.users}, who may do anything whatever the ACLs say. */
    public boolean isSuperUser(String principal) {
        return image == null || superUsers.contains(principal);
    }

    private AclAuthorizer core() {
        Map<Uuid, AclBinding> acls = image.get().acls();
        Built current = built;
        if (current == null || current.acls() != acls) {
            current = new Built(acls, new AclAuthorizer(acls.values(), superUsers, allowIfNoAcl));
            built = current;
        }
        return current.core();
    }
}
