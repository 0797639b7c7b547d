package dev.spool.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.EmbeddedSpool;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SpoolExtension.class)
class ExtendWithTest {

    @Test
    void brokerIsInjectedAsAParameter(EmbeddedSpool spool) throws Exception {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", spool.bootstrapServers()))) {
            assertThat(admin.describeCluster().nodes().get()).hasSize(1);
        }
    }
}
