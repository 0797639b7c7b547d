package dev.spool.broker.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigurationDocTest {

    /** The committed file, at the repository root (tests run in broker/). */
    private static final Path COMMITTED = Path.of("..", "CONFIGURATION.md");

    @Test
    void committedConfigurationDocMatchesTheDeclarations() throws IOException {
        String generated = ConfigurationDoc.render();
        if (Boolean.getBoolean("spool.writeConfigurationDoc")) {
            Files.writeString(COMMITTED, generated, StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(COMMITTED)).as("CONFIGURATION.md exists at the repository root").isTrue();
        assertThat(Files.readString(COMMITTED, StandardCharsets.UTF_8))
                .as("CONFIGURATION.md is stale: regenerate it with "
                        + "mvn -B -o -pl broker test -Dtest=ConfigurationDocTest -Dspool.writeConfigurationDoc=true")
                .isEqualTo(generated);
    }

    @Test
    void everyDeclaredSettingIsDocumented() {
        String doc = ConfigurationDoc.render();
        for (ConfigKey<?> key : BrokerConfig.ALL) {
            assertThat(doc).contains("| `" + key.name() + "` |");
        }
        for (LogDefaultSetting setting : BrokerConfig.LOG_DEFAULTS) {
            assertThat(doc).contains("| `" + setting.brokerName() + "` | `" + setting.topicName() + "` |");
        }
        assertThat(doc).contains("| `log.retention.hours` | `retention.ms` | long | `168` |");
        assertThat(doc).contains("| `node.id` | int | `1` | at least 0 |");
    }
}
