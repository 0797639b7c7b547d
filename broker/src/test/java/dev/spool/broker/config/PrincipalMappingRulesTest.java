package dev.spool.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PrincipalMappingRulesTest {

    private static final String ALICE = "CN=alice,OU=eng,O=Example,C=GB";

    @Test
    void defaultKeepsTheWholeDistinguishedName() {
        assertThat(PrincipalMappingRules.parse("DEFAULT").map(ALICE)).contains(ALICE);
        assertThat(PrincipalMappingRules.parse("").map(ALICE)).as("unset").contains(ALICE);
    }

    @Test
    void theFirstRuleMatchingTheWholeNameWinsWithItsCase() {
        PrincipalMappingRules rules = PrincipalMappingRules.parse(
                "RULE:^CN=(.*?),OU=ops,.*$/$1-ops/, RULE:^CN=(.*?),OU=(.*?),O=(.*?),.*$/$1@$3/U, DEFAULT");

        assertThat(rules.map(ALICE)).contains("ALICE@EXAMPLE");
        assertThat(rules.map("CN=bob,OU=ops,O=Example,C=GB")).contains("bob-ops");
        assertThat(rules.map("CN=carol")).as("only DEFAULT matches").contains("CN=carol");
    }

    @Test
    void aNameNoRuleMatchesHasNoPrincipal() {
        PrincipalMappingRules rules = PrincipalMappingRules.parse("RULE:^CN=(bob)$/$1/L");

        assertThat(rules.map("CN=BOB")).isEmpty();
        assertThat(rules.map("CN=bob")).contains("bob");
        assertThat(rules.map(ALICE)).isEmpty();
    }

    @Test
    void anEscapedSlashBelongsToThePattern() {
        assertThat(PrincipalMappingRules.parse("RULE:^CN=(.*)\\/admin$/$1/").map("CN=alice/admin")).contains("alice");
    }

    @Test
    void somethingElseIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> PrincipalMappingRules.parse("RULE:^CN=(.*)$/$1/X"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("ssl.principal.mapping.rules");
        assertThatThrownBy(() -> PrincipalMappingRules.parse("DEFAULT, NONSENSE"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("NONSENSE");
        assertThatThrownBy(() -> PrincipalMappingRules.parse("RULE:^CN=(.*$/$1/"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("ssl.principal.mapping.rules");
        assertThatThrownBy(() -> PrincipalMappingRules.parse("RULE:^CN=(.*)$/$2/"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("names group $2");
    }
}
