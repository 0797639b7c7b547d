package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/spool server} fails closed: a listener or setting that asks for security Spool does not have
 * (a SASL mechanism it lacks, for clients or between nodes, an authorizer other than Kafka's StandardAuthorizer) or TLS and SASL it cannot set up, or for a cluster of several nodes, stops start-up with exit status 2 and a message naming it, before any port
 * opens or anything is written; a PLAINTEXT-only configuration, custom listener names included, starts.
 */
class FailClosedSecurityIT {


    @TempDir
    Path dir;

    @Test
    void aSaslPlaintextListenerWithoutUsersIsRefused() throws Exception {
        assertRefused("SASL_PLAINTEXT", List.of("sasl.enabled.mechanisms=PLAIN",
                        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT"),
                "listener SASL_PLAINTEXT enables SASL mechanism PLAIN but has no users: set "
                        + "listener.name.sasl_plaintext.plain.sasl.jaas.config");
    }

    @Test
    void aSaslSslListenerWithAMechanismNotServedIsRefused() throws Exception {
        assertRefused("SASL_SSL", List.of("sasl.enabled.mechanisms=GSSAPI"),
                "listener SASL_SSL enables SASL mechanism GSSAPI, which Spool does not support yet");
    }

    @Test
    void anOauthBearerValidatorThatCannotRunOrAKeySetWithoutOneIsRefused() throws Exception {
        assertRefused("SASL_SSL", List.of("sasl.enabled.mechanisms=OAUTHBEARER",
                        "listener.name.sasl_ssl.oauthbearer.sasl.server.callback.handler.class=com.example.Validator"),
                "com.example.Validator, which cannot run in Spool");
        assertRefused("SASL_SSL", List.of("sasl.enabled.mechanisms=OAUTHBEARER",
                        "sasl.oauthbearer.jwks.endpoint.url=https://idp.example/keys"),
                "names a key set (sasl.oauthbearer.jwks.endpoint.url) but no validator");
    }

    @Test
    void anSslListenerWhoseKeyStoreIsMissingIsRefused() throws Exception {
        assertRefused("SSL", List.of("ssl.keystore.location=/etc/kafka/broker.jks", "ssl.client.auth=required"),
                "Cannot set up TLS on listener SSL: no such file /etc/kafka/broker.jks");
    }

    @Test
    void aCustomListenerMappedToTlsWithoutAKeyStoreIsRefused() throws Exception {
        assertRefused("INTERNAL", List.of("listener.security.protocol.map=PLAINTEXT:PLAINTEXT,INTERNAL:SSL"),
                "Cannot set up TLS on listener INTERNAL: ssl.keystore.location is not set");
    }

    @Test
    void saslBetweenNodesWithAMechanismSpoolDoesNotLogInWithIsRefused() throws Exception {
        // The inter-broker listener (the first) speaks SASL; Kafka's default mechanism between brokers is GSSAPI.
        assertRefused("CLIENTS", List.of(
                        "listener.security.protocol.map=PLAINTEXT:SASL_PLAINTEXT,CLIENTS:PLAINTEXT,CONTROLLER:PLAINTEXT",
                        "process.roles=broker", "node.id=4", "cluster.id=MkU3OEVBNTcwNTJENDM2Qg",
                        "controller.quorum.bootstrap.servers=127.0.0.1:19093", "controller.listener.names=CONTROLLER"),
                "sasl.mechanism.inter.broker.protocol is GSSAPI, but listener PLAINTEXT speaks SASL");
    }

    @Test
    void anAuthorizerOtherThanKafkasStandardOneIsRefused() throws Exception {
        assertRefused("PLAINTEXT", List.of("authorizer.class.name=kafka.security.authorizer.AclAuthorizer"),
                "invalid value 'kafka.security.authorizer.AclAuthorizer' for authorizer.class.name");
    }

    @Test
    void aQuorumThatDoesNotNameThisNodeIsRefused() throws Exception {
        // Ignored, the node would start as a cluster of its own beside the quorum it was meant to join.
        assertRefused("CONTROLLER", List.of("listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                        "process.roles=broker,controller", "node.id=4", "controller.listener.names=CONTROLLER",
                        "cluster.id=MkU3OEVBNTcwNTJENDM2Qg",
                        "controller.quorum.voters=1@127.0.0.1:19093,2@127.0.0.1:29093,3@127.0.0.1:39093"),
                "controller.quorum.voters=1@127.0.0.1:19093,2@127.0.0.1:29093,3@127.0.0.1:39093 does not name this "
                        + "node");
    }

    @Test
    void aBrokerOnlyNodeWithoutTheClusterIdIsRefused() throws Exception {
        // Without the id it would join no cluster (or, with a fresh id, a cluster of its own).
        assertRefused("CONTROLLER", List.of("listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "process.roles=broker", "controller.quorum.bootstrap.servers=127.0.0.1:19093"),
                "cluster.id must be set");
    }

    @Test
    void plaintextOnlyConfigurationWithACustomListenerNameStarts() throws Exception {
        Path data = dir.resolve("data");
        SpoolProcess spool = SpoolProcess.startIn(data,
                "listeners=PLAINTEXT://127.0.0.1:0,CLIENTS://127.0.0.1:0",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CLIENTS:PLAINTEXT");
        try {
            String started = spool.output().stream().filter(line -> line.contains("started in")).findFirst().orElseThrow();
            int clientsPort = Integer.parseInt(started.replaceAll(".*CLIENTS://127\\.0\\.0\\.1:(\\d+).*", "$1"));
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:" + clientsPort))) {
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(1);
            }
            assertThat(spool.output()).as("a fresh data directory is not reported as a crash")
                    .noneMatch(line -> line.contains("unclean"))
                    .anyMatch(line -> line.contains("Loaded 0 partitions from " + data + " (new log dir)"));
        } finally {
            spool.kill(); // keeps the data, unlike close()
        }
        try (SpoolProcess restarted = SpoolProcess.startIn(data)) {
            assertThat(restarted.output()).as("after SIGKILL the same directory is recovered as a crash")
                    .anyMatch(line -> line.contains("Loaded") && line.contains("(unclean shutdown)"));
        }
    }

    /**
     * Starts {@code bin/spool server} with a PLAINTEXT listener and one named {@code listenerName}, plus
     * {@code overrides}, and checks it exits with status 2 printing {@code message}, that neither port ever
     * accepted a connection while it ran, and that the data directory was not created.
     */
    private void assertRefused(String listenerName, List<String> overrides, String message) throws Exception {
        int plainPort = KillLoopIT.freePort();
        int securePort = KillLoopIT.freePort();
        Path data = dir.resolve("data");
        List<String> command = new ArrayList<>(List.of(SpoolProcess.repositoryRoot().resolve("bin/spool").toString(),
                "server", "--override", "log.dirs=" + data, "--override",
                "listeners=PLAINTEXT://127.0.0.1:" + plainPort + "," + listenerName + "://127.0.0.1:" + securePort));
        for (String override : overrides) {
            command.add("--override");
            command.add(override);
        }
        Path outputFile = dir.resolve("output.txt");
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(outputFile.toFile()).start();
        List<Integer> accepted = new ArrayList<>();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (process.isAlive() && System.nanoTime() < deadline) {
                for (int port : new int[] {plainPort, securePort}) {
                    if (accepts(port)) {
                        accepted.add(port);
                    }
                }
                Thread.sleep(20);
            }
            assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("bin/spool server exits").isTrue();
        } finally {
            process.destroyForcibly().waitFor();
        }
        String output = Files.readString(outputFile, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isEqualTo(2);
        assertThat(output).contains(message).doesNotContain("started in");
        assertThat(accepted).as("ports that accepted a connection").isEmpty();
        assertThat(data).as("nothing written").doesNotExist();
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 100);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
