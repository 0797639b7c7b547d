package dev.spool.broker.partition;

import java.io.IOException;

/** A write as leader of a partition refused because that leadership is over (another epoch, another leader). */
public final class LeadershipMovedException extends IOException {

    public LeadershipMovedException(String message) {
        super(message);
    }
}
