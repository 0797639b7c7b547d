package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * Exactly once under failure (issue 21): a consume-transform-produce loop ({@link ExactlyOnceLoop}: the Java client,
 * sendOffsetsToTransaction, every fifth transaction aborted on purpose) copies an input topic to an output topic
 * while the broker is SIGKILLed and restarted on the same data ({@code -Dexactlyonce.kills=N}, 3 by default).
 * Whatever a kill interrupts (a send, a commit or abort, the markers), the client retries or the loop starts over
 * with a new producer and consumer from the committed offsets; at the end a read_committed reader finds each
 * input's result in the output exactly once. {@code -Dexactlyonce.seed=S} reproduces the kill moments.
 */
class ExactlyOnceKillIT {

    private static final String INPUT = "eos-kill-input";
    private static final String OUTPUT = "eos-kill-output";
    private static final int PARTITIONS = 2;
    /**
     * Enough for the loop to outlast the kills: with 3,000 it copied everything in about 5 s, and a CI run found it
     * done before the third kill (seed 94088640719725), waiting for a commit that could not come.
     */
    private static final int RECORDS = 10_000;

    @Test
    void eachInputIsTransformedExactlyOnceThroughKills() throws Exception {
        int kills = Integer.getInteger("exactlyonce.kills", 3);
        long seed = Long.getLong("exactlyonce.seed", System.nanoTime());
        Random random = new Random(seed);
        String[] overrides = {"listeners=PLAINTEXT://127.0.0.1:" + KillLoopIT.freePort(),
                "group.initial.rebalance.delay.ms=0", "offsets.topic.num.partitions=3",
                "transaction.state.log.num.partitions=3"};
        SpoolProcess spool = SpoolProcess.start(overrides);
        String bootstrap = spool.bootstrap();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(INPUT, PARTITIONS, (short) 1),
                    new NewTopic(OUTPUT, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        ExactlyOnceLoop.writeInput(bootstrap, INPUT, RECORDS);
        ExactlyOnceLoop transformer = new ExactlyOnceLoop(() -> bootstrap, INPUT, OUTPUT, PARTITIONS, RECORDS,
                "eos-kill");
        Thread loop = new Thread(transformer, "eos-transformer");
        loop.start();
        try {
            for (int kill = 1; kill <= kills; kill++) {
                awaitACommit(transformer, "kill " + kill + " (seed " + seed + ")");
                Thread.sleep(100 + random.nextInt(700));
                spool.kill();
                spool = SpoolProcess.startIn(spool.dataDir(), overrides);
            }
            loop.join(TimeUnit.SECONDS.toMillis(120));
            assertThat(loop.isAlive()).as("the loop copied everything within 120 s of the last restart (seed %d)", seed)
                    .isFalse();
        } finally {
            transformer.running.set(false);
            loop.join(TimeUnit.SECONDS.toMillis(30));
        }
        try {
            List<String> output = ExactlyOnceLoop.readCommitted(bootstrap, OUTPUT, PARTITIONS, RECORDS);
            assertThat(output).as("nothing written twice (seed %d)", seed).doesNotHaveDuplicates();
            assertThat(output).as("every input's result (seed %d)", seed)
                    .containsExactlyInAnyOrderElementsOf(ExactlyOnceLoop.expectedOutput(RECORDS));
            System.out.printf("ExactlyOnceKillIT: %d kills (seed %d): %d results exactly once in %d committed "
                    + "transactions (%d aborted on purpose), %d loop restarts%n", kills, seed, output.size(),
                    transformer.committedTransactions.get(), transformer.abortedTransactions.get(),
                    transformer.restarts.get());
        } finally {
            spool.close();
        }
    }

    /** Waits (up to 60 s) until the loop commits one more transaction. */
    static void awaitACommit(ExactlyOnceLoop transformer, String before) throws InterruptedException {
        long committed = transformer.committedTransactions.get();
        long deadline = System.currentTimeMillis() + 60_000;
        while (transformer.committedTransactions.get() == committed && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertThat(transformer.committedTransactions.get()).as("a transaction committed before %s", before)
                .isGreaterThan(committed);
    }
}
