package dev.spool.it;

import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/** What the TLS and SASL tests do with client settings and command lines. Stateless. */
final class SecureClients {

    private SecureClients() {
    }

    /** {@code settings} with more key, value pairs. */
    static Map<String, Object> with(Map<String, Object> settings, Object... more) {
        Map<String, Object> all = new HashMap<>(settings);
        for (int i = 0; i < more.length; i += 2) {
            all.put((String) more[i], more[i + 1]);
        }
        return all;
    }

    /** Null when an admin client with {@code settings} gets DescribeCluster answered, else the cause it failed with. */
    static Throwable describeClusterFailure(Map<String, Object> settings) {
        try (Admin admin = Admin.create(with(settings, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000))) {
            Throwable failure = catchThrowable(() -> admin.describeCluster().nodes().get(20, TimeUnit.SECONDS));
            return failure == null || failure.getCause() == null ? failure : failure.getCause();
        }
    }

    static String[] concat(String[] first, String[] second) {
        String[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
