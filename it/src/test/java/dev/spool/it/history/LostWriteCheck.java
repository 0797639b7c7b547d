package dev.spool.it.history;

/**
 * Stateless. Lost writes: an acknowledged value (outside a transaction or in a committed one) that
 * no poll read, although some poll read its partition at or past the offset it was acknowledged
 * at. Every consumer reads a partition in offset order, so a consumer past that offset must have
 * been handed the value. An acknowledged value above the highest offset read is only "unseen":
 * counted, not a failure, since the consumers may just not have got there; a workload's final
 * drain should bring the count to zero.
 *
 * <p>Limit: a value acknowledged at two offsets is judged at the first visible acknowledgement,
 * and a value read anywhere is not lost (its offset is then checked by the consistency and
 * duplicate checks).
 */
public final class LostWriteCheck implements HistoryCheck {

    @Override
    public void check(HistoryIndex index, AnomalyTally tally) {
        for (SentValue sent : index.sends()) {
            if (index.status(sent.value()) != SendStatus.ACKNOWLEDGED || index.wasRead(sent.value())) {
                continue;
            }
            SentValue.Acknowledgement ack = sent.visibleAcknowledgement(index::outcome);
            long highestRead = index.highestReadOffset(ack.partition());
            String acknowledged = "value " + sent.value() + " acknowledged at " + ack.partition() + "@" + ack.offset()
                    + " to " + index.describe(ack.eventIndex()) + " was never read";
            if (ack.offset() <= highestRead) {
                tally.add(new Anomaly(AnomalyKind.LOST_WRITE, ack.partition(), ack.offset(), sent.value(),
                        acknowledged + ", though " + ack.partition() + " was read up to offset " + highestRead
                                + readThere(index, ack)));
            } else {
                tally.add(new Anomaly(AnomalyKind.UNSEEN, ack.partition(), ack.offset(), sent.value(),
                        acknowledged + "; " + ack.partition() + " was read only up to offset " + highestRead));
            }
        }
    }

    private static String readThere(HistoryIndex index, SentValue.Acknowledgement ack) {
        OffsetSlot slot = index.slots().get(ack.partition()).get(ack.offset());
        StringBuilder others = new StringBuilder();
        for (OffsetSlot.Claim claim : slot.claims()) {
            if (claim.eventIndex() != ack.eventIndex()) {
                others.append(others.length() == 0 ? "; that offset was read as " : ", ").append(claim.value());
            }
        }
        return others.toString();
    }
}
