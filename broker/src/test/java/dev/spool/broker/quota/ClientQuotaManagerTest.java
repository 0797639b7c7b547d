package dev.spool.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which of Kafka's eight entities gives a client its quota, whom usage is shared by, and the throttle time. */
class ClientQuotaManagerTest {

    private static final String RATE = QuotaType.PRODUCER_BYTE_RATE.key;

    private final Map<QuotaEntity, Map<String, Double>> quotas = new HashMap<>();

    private ClientQuotaManager manager() {
        return new ClientQuotaManager(QuotaType.PRODUCER_BYTE_RATE, () -> Map.copyOf(quotas), 11, 1000, 11_000);
    }

    private void set(QuotaEntity entity, double bound) {
        quotas.put(entity, Map.of(RATE, bound));
    }

    @Test
    void theMostSpecificEntityGivesTheQuota() {
        assertThat(manager().meter("alice", "app")).as("no quota, nothing measured").isNull();
        set(QuotaEntity.of(QuotaEntity.CLIENT_ID, null), 8);
        assertThat(manager().meter("alice", "app").maxValueInWindow()).isEqualTo(80);
        set(QuotaEntity.of(QuotaEntity.CLIENT_ID, "app"), 7);
        assertThat(manager().meter("alice", "app").maxValueInWindow()).isEqualTo(70);
        set(QuotaEntity.of(QuotaEntity.USER, null), 6);
        assertThat(manager().meter("alice", "app").maxValueInWindow()).isEqualTo(60);
        set(QuotaEntity.userAndClient(null, null), 5);
        assertThat(manager().meter("alice", "app").maxValueInWindow()).isEqualTo(50);
        set(QuotaEntity.userAndClient(null, "app"), 4);
        assertThat(manager().meter("alice", "app").maxValueInWindow()).isEqualTo(40);
        set(QuotaEntity.of(QuotaEntity.USER, "alice"), 3);
        assertThat(manager().meter("alice", "app").maxValueInWindow()).isEqualTo(30);
        set(QuotaEntity.userAndClient("alice", null), 2);
        assertThat(manager().meter("alice", "app").maxValueInWindow()).isEqualTo(20);
        set(QuotaEntity.userAndClient("alice", "app"), 1);
        assertThat(manager().meter("alice", "app").maxValueInWindow()).isEqualTo(10);
        assertThat(manager().meter("bob", "other").maxValueInWindow()).isEqualTo(50);
        // A quota of another kind on the most specific entity does not hide this one.
        quotas.put(QuotaEntity.userAndClient("bob", "other"), Map.of(QuotaType.CONSUMER_BYTE_RATE.key, 1.0));
        assertThat(manager().meter("bob", "other").maxValueInWindow()).isEqualTo(50);
    }

    @Test
    void aUserQuotaIsSharedByItsClientsAndADefaultOneIsPerUser() {
        set(QuotaEntity.of(QuotaEntity.USER, "alice"), 1000);
        set(QuotaEntity.of(QuotaEntity.USER, null), 1000);
        ClientQuotaManager manager = manager();
        // 10 s of quota in the first 10 s window: 10,000 bytes pass, more is throttled.
        assertThat(manager.meter("alice", "one").recordAndThrottleMs(10_000, 0)).isZero();
        assertThat(manager.meter("alice", "two").recordAndThrottleMs(1_000, 0)).isPositive();
        assertThat(manager.meter("bob", "one").recordAndThrottleMs(10_000, 0)).isZero();
        assertThat(manager.meter("carol", "one").recordAndThrottleMs(10_000, 0)).isZero();
    }

    @Test
    void theThrottleIsTheTimeTheQuotaTakesToRepayTheDebt() {
        set(QuotaEntity.of(QuotaEntity.CLIENT_ID, "app"), 1000);
        ClientQuotaManager manager = manager();
        // A first burst of the whole window's quota (10 s of it) passes; 5,000 bytes more take 5 s to repay.
        assertThat(manager.meter("u", "app").recordAndThrottleMs(15_000, 0)).isEqualTo(5000);
        manager.meter("u", "app").unrecord(15_000);
        assertThat(manager.meter("u", "app").recordAndThrottleMs(10_000, 0)).isZero();
        // Then the quota is earned as time passes: 1,000 bytes a second, no more.
        assertThat(manager.meter("u", "app").recordAndThrottleMs(2_000, 2000)).isZero();
        assertThat(manager.meter("u", "app").recordAndThrottleMs(1_000, 2000)).isEqualTo(1000);
        // Credit saved while idle is capped at the window's quota.
        assertThat(manager.meter("u", "app").recordAndThrottleMs(10_000, 100_000)).isZero();
        assertThat(manager.meter("u", "app").recordAndThrottleMs(500, 100_000)).isEqualTo(500);
        // Far over: never longer than the whole window at once.
        assertThat(manager.meter("u", "app").recordAndThrottleMs(10_000_000, 100_000)).isEqualTo(11_000);
    }
}
