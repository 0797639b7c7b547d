package dev.spool.log;

import dev.spool.log.record.CompressionType;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogConfigTest {
    /** The refusal of {@code key = value}, to assert on. */
    private static AbstractThrowableAssert<?, ? extends Throwable> assertRefused(String key, String value) {
        return assertThatThrownBy(() -> LogConfig.fromProperties(Map.of(key, value)));
    }

    @Test
    void defaultsAreKafkas() {
        LogConfig config = LogConfig.defaults();
        assertThat(config.segmentBytes).isEqualTo(1_073_741_824);
        assertThat(config.segmentMs).isEqualTo(604_800_000L);
        assertThat(config.segmentIndexBytes).isEqualTo(10_485_760);
        assertThat(config.indexIntervalBytes).isEqualTo(4096);
        assertThat(config.retentionMs).isEqualTo(604_800_000L);
        assertThat(config.retentionBytes).isEqualTo(-1);
        assertThat(config.flushMessages).isEqualTo(Long.MAX_VALUE);
        assertThat(config.flushMs).isEqualTo(Long.MAX_VALUE);
        assertThat(config.fileDeleteDelayMs).isEqualTo(60_000);
        assertThat(config.maxMessageBytes).isEqualTo(1_048_588);
        assertThat(config.logAppendTime).isFalse();
        assertThat(config.delete).isTrue();
        assertThat(config.compact).isFalse();
    }

    @Test
    void overridesParseAndBadValuesNameTheKey() {
        LogConfig config = LogConfig.fromProperties(Map.of("cleanup.policy", "compact,delete",
                "message.timestamp.type", "LogAppendTime", "retention.bytes", "1000"));
        assertThat(config.compact).isTrue();
        assertThat(config.delete).isTrue();
        assertThat(config.logAppendTime).isTrue();
        assertThat(config.retentionBytes).isEqualTo(1000);
        assertThat(config.with(Map.of("retention.bytes", "5")).retentionBytes).isEqualTo(5);
        assertRefused("segment.bytes", "abc")
                .hasMessageContaining("segment.bytes");
        assertRefused("segment.bytes", "10")
                .hasMessageContaining("minimum");
        assertRefused("no.such.config", "1")
                .hasMessageContaining("no.such.config");
        assertRefused("cleanup.policy", "keep")
                .hasMessageContaining("keep");
    }

    @Test
    void compressionTypeTakesKafkasValuesAndNamesTheCodecTheBrokerStores() {
        assertThat(LogConfig.defaults().finalCompression).as("producer").isNull();
        assertThat(LogConfig.fromProperties(Map.of("compression.type", "uncompressed")).finalCompression)
                .isEqualTo(CompressionType.NONE);
        for (CompressionType codec : List.of(CompressionType.GZIP, CompressionType.SNAPPY, CompressionType.LZ4,
                CompressionType.ZSTD)) {
            assertThat(LogConfig.fromProperties(Map.of("compression.type", codec.configName)).finalCompression)
                    .isEqualTo(codec);
        }
        for (String refused : List.of("none", "GZIP", "brotli", "")) {
            assertRefused("compression.type", refused)
                    .hasMessage("Invalid value " + refused + " for configuration compression.type: String must be one "
                            + "of: uncompressed, zstd, lz4, snappy, gzip, producer");
        }
    }

    @Test
    void storedValuesThisVersionRefusesAreSkippedAndTheDefaultApplies() {
        LogConfig stored = LogConfig.fromStoredProperties(Map.of("compression.type", "none", "retention.ms", "1000",
                "no.such.config", "1"));
        assertThat(stored.finalCompression).isNull();
        assertThat(stored.retentionMs).isEqualTo(1000);
        LogConfig withStored = stored.withStored(Map.of("message.timestamp.type", "Sometimes", "segment.bytes", "2048"));
        assertThat(withStored.logAppendTime).isFalse();
        assertThat(withStored.segmentBytes).isEqualTo(2048);
        assertThatThrownBy(() -> stored.with(Map.of("compression.type", "none")))
                .as("a request is still refused").isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void kafkasSettingsForFeaturesSpoolLacksAreValidatedAsKafkaDoes() {
        LogConfig config = LogConfig.fromProperties(Map.of("compression.gzip.level", "9", "compression.lz4.level", "17",
                "compression.zstd.level", "-131072", "local.retention.ms", "-2", "remote.storage.enable", "false",
                "leader.replication.throttled.replicas", "0:1, 1:2", "follower.replication.throttled.replicas", "*"));
        assertThat(config.asProperties()).containsEntry("compression.zstd.level", "-131072")
                .containsEntry("leader.replication.throttled.replicas", "0:1, 1:2")
                .containsEntry("local.retention.bytes", "-2");
        assertThat(LogConfig.defaults().asProperties()).containsEntry("compression.gzip.level", "-1")
                .containsEntry("compression.lz4.level", "9").containsEntry("compression.zstd.level", "3")
                .containsEntry("remote.storage.enable", "false")
                .containsEntry("follower.replication.throttled.replicas", "");
        assertRefused("compression.gzip.level", "0")
                .hasMessageContaining("compression.gzip.level = 0").hasMessageContaining("-1, or 1 to 9");
        assertRefused("compression.lz4.level", "18")
                .hasMessageContaining("1 to 17");
        assertRefused("compression.zstd.level", "23")
                .hasMessageContaining("-131072 to 22");
        assertRefused("local.retention.ms", "-3")
                .hasMessageContaining("below the minimum -2");
        assertRefused("remote.storage.enable", "true")
                .hasMessageContaining("no tiered storage");
        assertThat(LogConfig.fromProperties(Map.of("follower.replication.throttled.replicas", "0:1,,2:1,"))
                .asProperties()).containsEntry("follower.replication.throttled.replicas", "0:1,,2:1,");
        assertThat(LogConfig.fromProperties(Map.of("leader.replication.throttled.replicas", " * "))).isNotNull();
        for (String bad : new String[] {"0-1", "0 : 1", "99999999999:1", "*,0:1", "a:b"}) {
            assertRefused("leader.replication.throttled.replicas", bad)
                    .as(bad).hasMessageContaining("leader.replication.throttled.replicas")
                    .hasMessageContaining("partition:broker");
        }
    }

    @Test
    void checkpointFileRoundTripsAndRejectsMalformedFiles(@TempDir Path dir) throws IOException {
        CheckpointFile file = new CheckpointFile(dir.resolve("recovery-point-offset-checkpoint"));
        assertThat(file.read(3)).isEmpty();
        file.write(List.of("a 0 10", "b-c 3 99"));
        assertThat(Files.readString(file.path())).isEqualTo("0\n2\na 0 10\nb-c 3 99\n");
        assertThat(file.read(3)).extracting(f -> String.join("|", f)).containsExactly("a|0|10", "b-c|3|99");
        Files.writeString(file.path(), "0\n3\na 0 10\n");
        assertThatThrownBy(() -> file.read(3)).hasMessageContaining("announces 3 entries");
        Files.writeString(file.path(), "1\n0\n");
        assertThatThrownBy(() -> file.read(3)).hasMessageContaining("version");
    }

    @Test
    void topicPartitionDirNames() {
        assertThat(TopicPartition.parseDirName("my-topic-12")).isEqualTo(new TopicPartition("my-topic", 12));
        assertThat(TopicPartition.parseDirName("__consumer_offsets-49").partition()).isEqualTo(49);
        assertThat(TopicPartition.parseDirName("nodash")).isNull();
        assertThat(TopicPartition.parseDirName("t-x")).isNull();
        assertThat(new TopicPartition("a.b", 0).dirName()).isEqualTo("a.b-0");
    }
}
