package dev.spool.it.faults;

import java.util.List;
import java.util.Map;

/**
 * Stateless: starts the test bed a fault schedule runs on: a {@link NamespaceCluster} (each node in a network
 * namespace of its own: every fault, partitions and full disks too) where this machine has network namespaces
 * (root), else a {@link LoopbackCluster} (process faults only), so that tests name no implementation.
 *
 * <p>{@code -Dfaults.brokenBuild=NAME} starts the namespace bed's nodes deliberately broken (the broker's
 * {@code DeliberateFault}, e.g. {@code acks-all-before-isr}): a run on them must fail, which is how a fault test
 * shows it can.
 */
public final class Beds {

    private Beds() {
    }

    /** A running cluster of {@code nodes} nodes with {@code settings}, any randomness it needs seeded by {@code seed}. */
    public static Nemesis start(int nodes, long seed, List<String> settings) throws Exception {
        String whyNot = NetworkBed.unavailableReason();
        if (whyNot != null) {
            System.out.println("Beds: on loopback, no partitions or full disks (" + whyNot + ")");
            return LoopbackCluster.start(nodes, seed, settings);
        }
        return NamespaceCluster.start(nodes, seed, settings.toArray(String[]::new));
    }

    /** The environment a bed's node starts with: the deliberately broken build {@code -Dfaults.brokenBuild} names. */
    static Map<String, String> nodeEnvironment() {
        String broken = System.getProperty("faults.brokenBuild", "");
        return broken.isBlank() ? Map.of() : Map.of("SPOOL_OPTS", "-Dspool.deliberate.fault=" + broken);
    }
}
