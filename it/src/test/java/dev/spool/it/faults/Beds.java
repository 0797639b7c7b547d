package dev.spool.it.faults;

import java.util.List;

/**
 * Stateless: starts the test bed a fault schedule runs on. Today that is {@link LoopbackCluster}, whose nemesis
 * kills, stops, pauses and power-cuts processes; the bed of network namespaces, which also partitions nodes and fills
 * disks, plugs in here, chosen when it is available on the machine, so that tests name no implementation.
 */
public final class Beds {

    private Beds() {
    }

    /** A running cluster of {@code nodes} nodes with {@code settings}, any randomness it needs seeded by {@code seed}. */
    public static Nemesis start(int nodes, long seed, List<String> settings) throws Exception {
        return LoopbackCluster.start(nodes, seed, settings);
    }
}
