package dev.spool.broker.security.acl;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Immutable: one set of ACLs, decided as Kafka's StandardAuthorizer decides. A super user
 * ({@code super.users}) may do anything. Otherwise an ACL counts when its resource pattern covers the resource and it
 * is about the principal (or {@code User:*}) and host (or {@code *}): any DENY of the operation (or of ALL) denies;
 * else any ALLOW of it, of ALL or of an operation implying it allows; else, when no ACL at all covers the resource,
 * {@code allow.everyone.if.no.acl.found} decides; else it is denied. A new set of ACLs is a new authorizer.
 */
public final class AclAuthorizer {

    /** A name no ACL is likely to name, standing for "some resource" in {@link #authorizeAny}, as in Kafka. */
    private static final String UNNAMED = "hardcode";

    private final Set<String> superUsers;
    private final boolean allowIfNoAcl;
    /**
     * By resource type: the literal ACLs by name (the wildcard's under "*"), and the prefixed ones by prefix with the
     * lengths their prefixes have, so a name is matched by a lookup per length, not a scan of every prefixed ACL.
     */
    private final Map<ResourceType, Map<String, List<AclBinding>>> literal = new EnumMap<>(ResourceType.class);
    private final Map<ResourceType, Map<String, List<AclBinding>>> prefixed = new EnumMap<>(ResourceType.class);
    private final Map<ResourceType, TreeSet<Integer>> prefixLengths = new EnumMap<>(ResourceType.class);
    private final Map<ResourceType, List<AclBinding>> byType = new EnumMap<>(ResourceType.class);

    public AclAuthorizer(Collection<AclBinding> acls, Set<String> superUsers, boolean allowIfNoAcl) {
        this.superUsers = Set.copyOf(superUsers);
        this.allowIfNoAcl = allowIfNoAcl;
        for (AclBinding acl : acls) {
            byType.computeIfAbsent(acl.resourceType(), type -> new ArrayList<>()).add(acl);
            if (acl.patternType() == PatternType.LITERAL) {
                literal.computeIfAbsent(acl.resourceType(), type -> new HashMap<>())
                        .computeIfAbsent(acl.resourceName(), name -> new ArrayList<>()).add(acl);
            } else if (acl.patternType() == PatternType.PREFIXED) {
                prefixed.computeIfAbsent(acl.resourceType(), type -> new HashMap<>())
                        .computeIfAbsent(acl.resourceName(), name -> new ArrayList<>()).add(acl);
                prefixLengths.computeIfAbsent(acl.resourceType(), type -> new TreeSet<>())
                        .add(acl.resourceName().length());
            }
        }
    }

    /** Whether {@code principal} ({@code User:alice}) connecting from {@code host} may {@code operation} the resource. */
    public boolean authorize(String principal, String host, AclOperation operation, ResourceType type, String name) {
        if (superUsers.contains(principal)) {
            return true;
        }
        List<AclBinding> covering = covering(type, name);
        boolean allowed = false;
        for (AclBinding acl : covering) {
            if (!acl.appliesTo(principal, host)) {
                continue;
            }
            if (acl.permission() == AclPermission.DENY && acl.operation().denies(operation)) {
                return false;
            }
            if (acl.permission() == AclPermission.ALLOW && acl.operation().allows(operation)) {
                allowed = true;
            }
        }
        return allowed || covering.isEmpty() && allowIfNoAcl;
    }

    /**
     * Whether {@code principal} may {@code operation} some resource of {@code type} (KIP-679's authorizeByResourceType,
     * which lets an idempotent producer in that may WRITE some topic): an ALLOW of it that no DENY of the operation
     * covers as broadly (a DENY on the wildcard, on the same name, or on a prefix of it). Else, with
     * {@code allow.everyone.if.no.acl.found}, whether some resource of the type no ACL covers exists.
     */
    public boolean authorizeAny(String principal, String host, AclOperation operation, ResourceType type) {
        if (superUsers.contains(principal)) {
            return true;
        }
        List<AclBinding> ofType = byType.getOrDefault(type, List.of());
        List<AclBinding> denials = new ArrayList<>();
        for (AclBinding acl : ofType) {
            if (acl.permission() == AclPermission.DENY && acl.operation().denies(operation)
                    && acl.appliesTo(principal, host)) {
                denials.add(acl);
            }
        }
        for (AclBinding allow : ofType) {
            if (allow.permission() == AclPermission.ALLOW && allow.operation().allows(operation)
                    && allow.appliesTo(principal, host) && !deniedAsBroadly(allow, denials)) {
                return true;
            }
        }
        // As Kafka: with allow.everyone.if.no.acl.found, a resource of the type that no ACL names would be open.
        return allowIfNoAcl && covering(type, UNNAMED).isEmpty();
    }

    /** Whether a DENY covers every resource the ALLOW {@code allow} covers. */
    private static boolean deniedAsBroadly(AclBinding allow, List<AclBinding> denials) {
        for (AclBinding deny : denials) {
            boolean wildcard = deny.patternType() == PatternType.LITERAL && deny.resourceName().equals(AclBinding.WILDCARD);
            boolean same = deny.patternType() == allow.patternType() && deny.resourceName().equals(allow.resourceName());
            boolean prefix = deny.patternType() == PatternType.PREFIXED
                    && allow.resourceName().startsWith(deny.resourceName());
            if (wildcard || same || prefix) {
                return true;
            }
        }
        return false;
    }

    /** Every ACL whose pattern covers {@code type} {@code name}. */
    private List<AclBinding> covering(ResourceType type, String name) {
        List<AclBinding> covering = new ArrayList<>();
        Map<String, List<AclBinding>> byName = literal.get(type);
        if (byName != null) {
            covering.addAll(byName.getOrDefault(name, List.of()));
            if (!name.equals(AclBinding.WILDCARD)) {
                covering.addAll(byName.getOrDefault(AclBinding.WILDCARD, List.of()));
            }
        }
        Map<String, List<AclBinding>> byPrefix = prefixed.get(type);
        if (byPrefix != null) {
            for (int length : prefixLengths.get(type)) {
                if (length > name.length()) {
                    break;
                }
                covering.addAll(byPrefix.getOrDefault(name.substring(0, length), List.of()));
            }
        }
        return covering;
    }
}
