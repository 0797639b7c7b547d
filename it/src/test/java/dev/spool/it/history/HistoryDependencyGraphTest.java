package dev.spool.it.history;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Components and cycles of the dependency graph behind the G0 and G1c checks. */
class HistoryDependencyGraphTest {

    @Test
    void chainHasNoCycleAndTwoLoopsAreTwoComponents() {
        DependencyGraph graph = new DependencyGraph();
        graph.addEdge("a", "b", "ab");
        graph.addEdge("b", "c", "bc");
        assertThat(graph.cyclicComponents()).isEmpty();

        graph.addEdge("c", "a", "ca");
        graph.addEdge("x", "y", "xy");
        graph.addEdge("y", "x", "yx");
        graph.addEdge("c", "x", "cx");

        assertThat(graph.cyclicComponents()).containsExactlyInAnyOrder(Set.of("a", "b", "c"), Set.of("x", "y"));
    }

    @Test
    void cycleThroughAnEdgeIsTheShortestBackToItsTail() {
        DependencyGraph graph = new DependencyGraph();
        graph.addEdge("a", "b", "ab");
        graph.addEdge("b", "c", "bc");
        graph.addEdge("c", "d", "cd");
        graph.addEdge("d", "a", "da");
        graph.addEdge("b", "a", "ba");

        List<String> cycle = graph.cycleThrough("a", "b", Set.of("a", "b", "c", "d"));

        assertThat(cycle).containsExactly("a", "b", "a");
        assertThat(graph.describe(cycle)).isEqualTo("a -[ab]-> b -[ba]-> a");
    }

    @Test
    void longChainClosedIntoOneLoopDoesNotOverflowTheStack() {
        DependencyGraph graph = new DependencyGraph();
        int nodes = 50_000;
        for (int i = 0; i < nodes; i++) {
            graph.addEdge("n" + i, "n" + (i + 1), "next");
        }
        assertThat(graph.cyclicComponents()).isEmpty();

        graph.addEdge("n" + nodes, "n0", "back");

        assertThat(graph.cyclicComponents()).singleElement().satisfies(component -> assertThat(component).hasSize(nodes + 1));
    }

    @Test
    void selfEdgeIsNoDependency() {
        DependencyGraph graph = new DependencyGraph();
        graph.addEdge("a", "a", "self");

        assertThat(graph.cyclicComponents()).isEmpty();
        assertThat(graph.successors("a")).isEmpty();
    }
}
