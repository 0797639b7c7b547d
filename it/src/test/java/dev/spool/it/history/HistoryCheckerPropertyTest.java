package dev.spool.it.history;

import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker against a model: random correct histories of a partitioned log pass with nothing
 * to report; the same histories with one deliberate fault are caught, by the anomaly the fault
 * must cause.
 */
class HistoryCheckerPropertyTest {

    @Property(tries = 300)
    void correctHistoryHasNoAnomalyAtAll(@ForAll long seed, @ForAll @IntRange(min = 1, max = 150) int steps,
                                         @ForAll @IntRange(min = 1, max = 3) int partitions) {
        List<HistoryEvent> events = SimulatedHistory.generate(seed, steps, partitions);

        CheckResult result = HistoryChecker.standard().check(events);

        for (AnomalyKind kind : AnomalyKind.values()) {
            assertThat(result.count(kind)).as("%s in%n%s", kind.label(), result.summary()).isZero();
        }
        assertThat(result.totals().recordsRead()).isGreaterThanOrEqualTo(result.totals().valuesAcknowledged());
    }

    @Property(tries = 600)
    void injectedFaultIsFound(@ForAll long seed, @ForAll @IntRange(min = 10, max = 150) int steps,
                              @ForAll @IntRange(min = 1, max = 3) int partitions, @ForAll HistoryFault fault) {
        List<HistoryEvent> correct = SimulatedHistory.generate(seed, steps, partitions);
        Optional<List<HistoryEvent>> broken = fault.inject(correct, new Random(seed));
        Assume.that(broken.isPresent());
        Statistics.collect(fault);

        CheckResult result = HistoryChecker.standard().check(broken.get());

        assertThat(result.count(fault.expected())).as("%s after %s in%n%s", fault.expected().label(), fault, result.summary())
                .isPositive();
        assertThat(result.valid()).isFalse();
    }

    @Property(tries = 100)
    void historyRoundTripsThroughItsLines(@ForAll long seed, @ForAll @IntRange(min = 1, max = 80) int steps) {
        List<HistoryEvent> events = SimulatedHistory.generate(seed, steps, 2);

        for (HistoryEvent event : events) {
            assertThat(HistoryLineFormat.parse(HistoryLineFormat.format(event))).isEqualTo(event);
        }
    }
}
