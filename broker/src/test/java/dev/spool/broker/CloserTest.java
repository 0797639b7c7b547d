package dev.spool.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CloserTest {

    @Test
    void closesTheLastOpenedFirstGoesOnPastAFailureAndSkipsWhatWasHandedOver() {
        List<String> closed = new ArrayList<>();
        Closer closer = new Closer();
        closer.register(() -> closed.add("storage"));
        AutoCloseable transport = closer.register(() -> closed.add("transport"));
        closer.register(() -> {
            closed.add("partitions");
            throw new IllegalStateException("close failed (test)");
        });
        closer.register(() -> closed.add("network"));
        closer.handOver(transport);

        closer.close();
        closer.close(); // a second close has nothing left to close

        assertThat(closed).containsExactly("network", "partitions", "storage");
    }
}
