package dev.spool.broker.security.acl;

import static dev.spool.broker.security.acl.AclOperation.ALL;
import static dev.spool.broker.security.acl.AclOperation.ALTER_CONFIGS;
import static dev.spool.broker.security.acl.AclOperation.DESCRIBE;
import static dev.spool.broker.security.acl.AclOperation.DESCRIBE_CONFIGS;
import static dev.spool.broker.security.acl.AclOperation.READ;
import static dev.spool.broker.security.acl.AclOperation.WRITE;
import static dev.spool.broker.security.acl.AclPermission.ALLOW;
import static dev.spool.broker.security.acl.AclPermission.DENY;
import static dev.spool.broker.security.acl.PatternType.LITERAL;
import static dev.spool.broker.security.acl.PatternType.PREFIXED;
import static dev.spool.broker.security.acl.ResourceType.GROUP;
import static dev.spool.broker.security.acl.ResourceType.TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AclAuthorizerTest {

    private static final String HOST = "10.0.0.1";

    private static AclBinding acl(PatternType pattern, String name, String principal, AclOperation operation,
                                  AclPermission permission) {
        return new AclBinding(TOPIC, name, pattern, principal, "*", operation, permission);
    }

    @Test
    void withoutAclsAllowEveryoneIfNoAclFoundDecides() {
        assertThat(new AclAuthorizer(List.of(), Set.of(), false).authorize("User:alice", HOST, READ, TOPIC, "t"))
                .isFalse();
        assertThat(new AclAuthorizer(List.of(), Set.of(), true).authorize("User:alice", HOST, READ, TOPIC, "t"))
                .isTrue();
    }

    @Test
    void anAllowCoversItsOperationAndTheOnesItImpliesForItsPrincipalOnly() {
        AclAuthorizer authorizer = new AclAuthorizer(List.of(acl(LITERAL, "orders", "User:alice", READ, ALLOW),
                acl(LITERAL, "orders", "User:ops", ALTER_CONFIGS, ALLOW)), Set.of(), true);

        assertThat(authorizer.authorize("User:alice", HOST, READ, TOPIC, "orders")).isTrue();
        assertThat(authorizer.authorize("User:alice", HOST, DESCRIBE, TOPIC, "orders")).as("implied").isTrue();
        assertThat(authorizer.authorize("User:alice", HOST, WRITE, TOPIC, "orders")).isFalse();
        assertThat(authorizer.authorize("User:ops", HOST, DESCRIBE_CONFIGS, TOPIC, "orders")).as("implied").isTrue();
        assertThat(authorizer.authorize("User:ops", HOST, DESCRIBE, TOPIC, "orders"))
                .as("ALTER_CONFIGS does not imply DESCRIBE").isFalse();
        assertThat(authorizer.authorize("User:bob", HOST, READ, TOPIC, "orders"))
                .as("ACLs exist for the topic, so allow.everyone.if.no.acl.found does not apply").isFalse();
        assertThat(authorizer.authorize("User:bob", HOST, READ, TOPIC, "other")).as("no ACL covers it").isTrue();
    }

    @Test
    void aDenyWinsButDeniesOnlyItsOwnOperation() {
        AclAuthorizer authorizer = new AclAuthorizer(List.of(acl(PREFIXED, "pay", AclBinding.ANY_USER, ALL, ALLOW),
                acl(LITERAL, "payments", "User:mallory", WRITE, DENY),
                acl(LITERAL, "payments", "User:eve", READ, DENY)), Set.of(), false);

        assertThat(authorizer.authorize("User:mallory", HOST, WRITE, TOPIC, "payments")).isFalse();
        assertThat(authorizer.authorize("User:mallory", HOST, READ, TOPIC, "payments")).isTrue();
        assertThat(authorizer.authorize("User:mallory", HOST, WRITE, TOPIC, "payroll")).as("prefix").isTrue();
        assertThat(authorizer.authorize("User:eve", HOST, READ, TOPIC, "payments")).isFalse();
        assertThat(authorizer.authorize("User:eve", HOST, DESCRIBE, TOPIC, "payments"))
                .as("a DENY of READ does not deny DESCRIBE, which ALL allows").isTrue();
        assertThat(authorizer.authorize("User:eve", HOST, READ, TOPIC, "spay")).as("not the prefix").isFalse();
        assertThat(authorizer.authorize("User:eve", HOST, READ, GROUP, "payments")).as("another type").isFalse();
    }

    @Test
    void theWildcardNameHostsAndSuperUsersCount() {
        AclAuthorizer authorizer = new AclAuthorizer(List.of(
                acl(LITERAL, AclBinding.WILDCARD, "User:alice", READ, ALLOW),
                new AclBinding(TOPIC, "audit", LITERAL, "User:bob", "10.0.0.9", READ, ALLOW),
                acl(LITERAL, "audit", AclBinding.ANY_USER, ALL, DENY)), Set.of("User:admin"), false);

        assertThat(authorizer.authorize("User:alice", HOST, READ, TOPIC, "anything")).isTrue();
        assertThat(authorizer.authorize("User:alice", HOST, READ, TOPIC, "audit")).as("the deny for all").isFalse();
        assertThat(authorizer.authorize("User:bob", "10.0.0.9", READ, TOPIC, "audit")).isFalse();
        assertThat(authorizer.authorize("User:admin", HOST, WRITE, TOPIC, "audit")).as("a super user").isTrue();

        AclAuthorizer hosts = new AclAuthorizer(List.of(
                new AclBinding(TOPIC, "audit", LITERAL, "User:bob", "10.0.0.9", READ, ALLOW)), Set.of(), false);
        assertThat(hosts.authorize("User:bob", "10.0.0.9", READ, TOPIC, "audit")).isTrue();
        assertThat(hosts.authorize("User:bob", HOST, READ, TOPIC, "audit")).as("another host").isFalse();
    }

    @Test
    void authorizeAnyFindsAnAllowNoDenyCoversAsBroadly() {
        AclAuthorizer prefixedWrite = new AclAuthorizer(List.of(acl(PREFIXED, "ord", "User:alice", WRITE, ALLOW)),
                Set.of(), false);
        assertThat(prefixedWrite.authorizeAny("User:alice", HOST, WRITE, TOPIC)).isTrue();
        assertThat(prefixedWrite.authorizeAny("User:bob", HOST, WRITE, TOPIC)).isFalse();
        assertThat(prefixedWrite.authorizeAny("User:alice", HOST, WRITE, GROUP)).isFalse();
        AclAuthorizer deniedByShorterPrefix = new AclAuthorizer(List.of(acl(PREFIXED, "ord", "User:alice", WRITE, ALLOW),
                acl(PREFIXED, "o", "User:alice", WRITE, DENY)), Set.of(), false);
        assertThat(deniedByShorterPrefix.authorizeAny("User:alice", HOST, WRITE, TOPIC)).isFalse();
        AclAuthorizer deniedElsewhere = new AclAuthorizer(List.of(acl(LITERAL, "orders", "User:alice", WRITE, ALLOW),
                acl(LITERAL, "secret", "User:alice", WRITE, DENY)), Set.of(), false);
        assertThat(deniedElsewhere.authorizeAny("User:alice", HOST, WRITE, TOPIC)).isTrue();
        AclAuthorizer deniedEverywhere = new AclAuthorizer(List.of(acl(LITERAL, "orders", "User:alice", WRITE, ALLOW),
                acl(LITERAL, "*", "User:*", ALL, DENY)), Set.of(), false);
        assertThat(deniedEverywhere.authorizeAny("User:alice", HOST, WRITE, TOPIC)).isFalse();
        assertThat(new AclAuthorizer(List.of(), Set.of(), true).authorizeAny("User:alice", HOST, WRITE, TOPIC))
                .isTrue();
    }
}
