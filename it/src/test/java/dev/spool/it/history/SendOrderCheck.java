package dev.spool.it.history;

import java.util.HashMap;
import java.util.Map;

/**
 * Stateless. Nonmonotonic sends: a producer that keeps order (idempotent, or one request in
 * flight) must have its values written in the order it sent them, per partition. In the order of
 * their {@code invoke} lines, each acknowledged value of one process in one partition must be at
 * a higher offset than every earlier one.
 *
 * <p>Limit: values the workload sent more than once, or acknowledged more than once, are left
 * out, since their attempts cannot be told apart; a process must name one producer instance.
 */
public final class SendOrderCheck implements HistoryCheck {

    private record Written(String value, long offset) {
    }

    @Override
    public void check(HistoryIndex index, AnomalyTally tally) {
        Map<String, Map<LogPartition, Written>> highestByProcess = new HashMap<>();
        for (HistoryEvent event : index.events()) {
            if (!event.is(EventType.INVOKE, Operation.SEND) || !index.profile(event.process()).ordered()) {
                continue;
            }
            SentValue sent = index.sent(event.value());
            if (sent.invocations() != 1 || sent.acknowledgements().size() != 1) {
                continue;
            }
            SentValue.Acknowledgement ack = sent.acknowledgements().get(0);
            Map<LogPartition, Written> highest = highestByProcess.computeIfAbsent(event.process(), process -> new HashMap<>());
            Written earlier = highest.get(ack.partition());
            if (earlier != null && ack.offset() <= earlier.offset()) {
                tally.add(new Anomaly(AnomalyKind.NONMONOTONIC_SEND, ack.partition(), ack.offset(), sent.value(),
                        event.process() + " sent " + sent.value() + " after " + earlier.value() + ", but " + sent.value()
                                + " was acknowledged at " + ack.partition() + "@" + ack.offset() + ", at or below "
                                + earlier.value() + " at " + ack.partition() + "@" + earlier.offset()));
            } else {
                highest.put(ack.partition(), new Written(sent.value(), ack.offset()));
            }
        }
    }
}
