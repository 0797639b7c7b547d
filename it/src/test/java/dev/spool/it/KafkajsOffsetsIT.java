package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** ListOffsets from kafkajs 2.2.4 (v3, read_committed): latest, earliest and by timestamp. */
class KafkajsOffsetsIT {

    @Test
    void kafkajsFetchesOffsetsAndOffsetsByTimestamp() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start()) {
            ExternalCommand.Result result = ExternalCommand.run(SpoolProcess.repositoryRoot().resolve("it/js"), 90,
                    "node", "offsets-by-time.js", spool.bootstrap(), "js-offsets");

            assertThat(result.exitCode()).as(result.output()).isZero();
            String json = result.output().lines().filter(line -> line.startsWith("{\"offsets\"")).findFirst()
                    .orElseThrow(() -> new AssertionError(result.output()));
            assertThat(json).isEqualTo("{\"offsets\":[{\"partition\":0,\"offset\":\"6\",\"high\":\"6\",\"low\":\"0\"}],"
                    + "\"at1003\":[{\"partition\":0,\"offset\":\"3\"}],"
                    // No record at or after the time: kafkajs answers the latest offset then.
                    + "\"at5000\":[{\"partition\":0,\"offset\":\"6\"}]}");
        }
    }
}
