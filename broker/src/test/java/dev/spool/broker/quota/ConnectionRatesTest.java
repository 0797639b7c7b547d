package dev.spool.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** max.connection.creation.rate over the broker, connection_creation_rate per IP address or the default one. */
class ConnectionRatesTest {

    private final Map<QuotaEntity, Map<String, Double>> quotas = new HashMap<>();

    @Test
    void theBrokerRateDelaysConnectionsBeyondItsBurst() {
        ConnectionRates rates = new ConnectionRates(2, 11, 1000, () -> quotas, 0);
        for (int i = 0; i < 20; i++) { // 10 s of the rate
            assertThat(rates.brokerDelayMs(0)).isZero();
        }
        assertThat(rates.brokerDelayMs(0)).isEqualTo(500);
        // A delayed connection is still served, so counted: 1 s repays 2, one of them owed already.
        assertThat(rates.brokerDelayMs(1000)).isZero();
        assertThat(rates.brokerDelayMs(1000)).isEqualTo(500);
        assertThat(new ConnectionRates(Integer.MAX_VALUE, 11, 1000, () -> quotas, 0).brokerDelayMs(0)).isZero();
    }

    @Test
    void anAddressOverItsQuotaIsRefusedAndNotCounted() throws Exception {
        InetAddress one = InetAddress.getByName("10.0.0.1");
        InetAddress two = InetAddress.getByName("10.0.0.2");
        quotas.put(QuotaEntity.of(QuotaEntity.IP, "10.0.0.1"), Map.of("connection_creation_rate", 1.0));
        quotas.put(QuotaEntity.of(QuotaEntity.IP, null), Map.of("connection_creation_rate", 2.0));
        ConnectionRates rates = new ConnectionRates(Integer.MAX_VALUE, 3, 1000, () -> quotas, 0);
        assertThat(rates.addressThrottleMs(one, 0)).isZero();
        assertThat(rates.addressThrottleMs(one, 0)).isZero();
        assertThat(rates.addressThrottleMs(one, 0)).isEqualTo(1000);
        assertThat(rates.addressThrottleMs(one, 0)).isEqualTo(1000); // the refused one was not counted
        assertThat(rates.addressThrottleMs(one, 1000)).isZero();
        for (int i = 0; i < 4; i++) { // the default address quota: 2 s of 2 a second
            assertThat(rates.addressThrottleMs(two, 0)).isZero();
        }
        assertThat(rates.addressThrottleMs(two, 0)).isEqualTo(500);
    }
}
