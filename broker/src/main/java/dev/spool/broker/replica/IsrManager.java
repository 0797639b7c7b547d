package dev.spool.broker.replica;

import dev.spool.broker.cluster.ControllerChannel;
import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.partition.FollowerStates;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterPartitionRequestData;
import dev.spool.protocol.message.AlterPartitionResponseData;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's side of the ISR, as Kafka's leaders keep it: every so often, for each partition this broker leads,
 * a follower in the ISR that has not been caught up for {@code replica.lag.time.max.ms} is taken out, and a replica
 * out of the ISR whose log end has reached the high watermark (and the start of this leadership) is taken back in.
 * Each change is asked of the active controller with AlterPartition (v3, with the members' broker epochs); the ISR
 * changes when the controller's PartitionChangeRecord reaches the image, never before (the high watermark keeps
 * counting the members of the image's ISR meanwhile). Every change a check finds goes in one request, as Kafka's
 * leaders batch theirs: a node back after a crash rejoins thousands of ISRs with a few controller writes, not one
 * each (which took a minute at 2,000 partitions and starved the node's heartbeats behind them). A partition has one
 * change in flight at a time. Runs on the scheduler; thread-safe.
 */
public final class IsrManager implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IsrManager.class);
    private static final short ALTER_PARTITION_VERSION = 3;
    private static final long REQUEST_TIMEOUT_MS = 5_000;

    private final int nodeId;
    private final PartitionManager partitions;
    private final ControllerChannel controller;
    private final Supplier<MetadataImage> image;
    private final LongSupplier clockMs;
    private final long lagTimeMaxMs;
    private final Set<TopicPartition> inFlight = ConcurrentHashMap.newKeySet();
    /**
     * The partition epoch the controller answered a change with, until this broker's image has it: until then the
     * image still shows the ISR before the change, and asking again would only be refused (as Kafka's leaders, which
     * take the answer's ISR at once). For at most {@code replica.lag.time.max.ms}, should the image never get there.
     */
    private final Map<TopicPartition, long[]> answeredEpochs = new ConcurrentHashMap<>();
    /** When this broker was first seen leading each partition in its leader epoch: a follower's grace period. */
    private final Map<TopicPartition, long[]> leadingSince = new ConcurrentHashMap<>();
    private final ScheduledFuture<?> task;

    public IsrManager(int nodeId, PartitionManager partitions, ControllerChannel controller,
                      Supplier<MetadataImage> image, LongSupplier clockMs, long lagTimeMaxMs,
                      ScheduledExecutorService scheduler, long checkIntervalMs) {
        this.nodeId = nodeId;
        this.partitions = partitions;
        this.controller = controller;
        this.image = image;
        this.clockMs = clockMs;
        this.lagTimeMaxMs = lagTimeMaxMs;
        this.task = scheduler.scheduleWithFixedDelay(this::check, checkIntervalMs, checkIntervalMs,
                TimeUnit.MILLISECONDS);
    }

    void check() {
        try {
            long nowMs = clockMs.getAsLong();
            List<IsrChange> changes = new ArrayList<>();
            for (Partition partition : partitions.all()) {
                PartitionImage assignment = partition.assignment();
                if (assignment.leader() != nodeId || assignment.replicas().size() < 2 || partition.isOffline()
                        || inFlight.contains(partition.topicPartition())
                        || awaitingImage(partition, assignment, nowMs)) {
                    continue;
                }
                List<Integer> wanted = wantedIsr(partition, assignment, nowMs);
                // The same members in another order is no change: the ISR the controller made (replica order at
                // creation, members removed in place) stays as it is, as Kafka's leader compares sets.
                if (wanted.size() != assignment.isr().size() || !assignment.isr().containsAll(wanted)) {
                    changes.add(new IsrChange(partition, assignment, wanted));
                }
            }
            if (!changes.isEmpty()) {
                send(changes);
            }
        } catch (RuntimeException e) {
            LOG.error("ISR check failed", e); // a thrown exception would end the periodic task
        }
    }

    /** Whether the controller made a change of {@code partition} that the image does not show yet. */
    private boolean awaitingImage(Partition partition, PartitionImage assignment, long nowMs) {
        long[] answered = answeredEpochs.get(partition.topicPartition());
        if (answered == null) {
            return false;
        }
        if (assignment.partitionEpoch() < answered[0] && nowMs - answered[1] <= lagTimeMaxMs) {
            return true;
        }
        answeredEpochs.remove(partition.topicPartition());
        return false;
    }

    /** A partition's ISR as the image has it ({@code assignment}) and as this leader wants it. */
    private record IsrChange(Partition partition, PartitionImage assignment, List<Integer> isr) {
    }

    /**
     * The ISR as this leader sees it now: the image's, lagging followers out, caught-up replicas in; in ascending
     * broker id order, the order Kafka 4.4's leader sends (its ISR is a hash set of the ids, which iterates in that
     * order for the ids clusters use), so that {@code kafka-topics --describe} prints the ISR a leader changed as
     * Kafka prints it ("Isr: 1,2,3" once broker 2 is back in a partition whose replicas are 3,1,2).
     */
    private List<Integer> wantedIsr(Partition partition, PartitionImage assignment, long nowMs) {
        long[] since = leadingSince.compute(partition.topicPartition(), (key, known) ->
                known != null && known[0] == assignment.leaderEpoch() ? known
                        : new long[] {assignment.leaderEpoch(), nowMs});
        long highWatermark = partition.log().highWatermark();
        long epochStart = partition.log().leaderEpochs().startOffsetOf(assignment.leaderEpoch());
        long leadershipStart = epochStart >= 0 ? epochStart : highWatermark;
        List<Integer> wanted = new ArrayList<>();
        for (int replica : assignment.replicas()) {
            if (replica == nodeId) {
                wanted.add(replica);
                continue;
            }
            FollowerStates.FollowerState follower = partition.follower(replica);
            if (assignment.isr().contains(replica)) {
                long caughtUp = Math.max(follower.lastCaughtUpMs(), since[1]);
                if (nowMs - caughtUp <= lagTimeMaxMs) {
                    wanted.add(replica);
                }
            } else if (follower.logEndOffset() >= highWatermark && follower.logEndOffset() >= leadershipStart
                    && nowMs - follower.lastCaughtUpMs() <= lagTimeMaxMs && image.get().isUnfenced(replica)
                    && fetchedInCurrentEpoch(replica, follower)) {
                // Caught up lately too, not only up to the high watermark: a follower that stopped fetching while
                // the high watermark stood still (the ISR below min.insync.replicas) would be taken back and out
                // again every check.
                wanted.add(replica);
            }
        }
        wanted.sort(null);
        return wanted;
    }


    /**
     * Whether {@code follower}'s state comes from fetches of the broker's registered process (KIP-903): a broker that
     * restarted after a crash, its log perhaps cut short by a power cut, is registered again with a new epoch, while
     * its old process's state here still shows it caught up until its new one fetches.
     */
    private boolean fetchedInCurrentEpoch(int replica, FollowerStates.FollowerState follower) {
        BrokerRegistration broker = image.get().brokers().get(replica);
        return broker != null && (follower.brokerEpoch() < 0 || follower.brokerEpoch() == broker.brokerEpoch());
    }

    private void send(List<IsrChange> changes) {
        MetadataImage current = image.get();
        BrokerRegistration self = current.brokers().get(nodeId);
        if (self == null) {
            return;
        }
        Map<Uuid, AlterPartitionRequestData.TopicData> topics = new LinkedHashMap<>();
        List<TopicPartition> asked = new ArrayList<>();
        for (IsrChange change : changes) {
            Partition partition = change.partition();
            topics.computeIfAbsent(partition.topicId(), id -> new AlterPartitionRequestData.TopicData().setTopicId(id))
                    .partitions().add(new AlterPartitionRequestData.PartitionData()
                            .setPartitionIndex(partition.topicPartition().partition())
                            .setLeaderEpoch(change.assignment().leaderEpoch())
                            .setPartitionEpoch(change.assignment().partitionEpoch())
                            .setNewIsrWithEpochs(members(current, change)));
            asked.add(partition.topicPartition());
            LOG.info("{}: asking the controller to change the ISR from {} to {}", partition,
                    change.assignment().isr(), change.isr());
        }
        inFlight.addAll(asked);
        AlterPartitionRequestData request = new AlterPartitionRequestData().setBrokerId(nodeId)
                .setBrokerEpoch(self.brokerEpoch()).setTopics(new ArrayList<>(topics.values()));
        // Bounded: a request to a controller that stopped answering (paused, cut off) would otherwise hold the
        // partitions' slots for ever, and no ISR could shrink.
        controller.send(ApiKey.ALTER_PARTITION, ALTER_PARTITION_VERSION, request)
                .orTimeout(REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS).whenComplete((answer, failure) -> {
            asked.forEach(inFlight::remove);
            if (failure != null) {
                LOG.debug("AlterPartition of {} partitions failed (retried at the next check): {}", changes.size(),
                        failure.toString());
                return;
            }
            onAnswer((AlterPartitionResponseData) answer, changes);
        });
    }

    /**
     * The new ISR's members with their broker epochs: a member joining with the epoch it fetched in, so that the
     * controller refuses it if it has restarted since (KIP-903); the others with the epoch they are registered with.
     */
    private static List<AlterPartitionRequestData.BrokerState> members(MetadataImage current, IsrChange change) {
        List<AlterPartitionRequestData.BrokerState> members = new ArrayList<>();
        for (int member : change.isr()) {
            BrokerRegistration broker = current.brokers().get(member);
            long fetchedIn = change.partition().follower(member).brokerEpoch();
            long epoch = !change.assignment().isr().contains(member) && fetchedIn >= 0 ? fetchedIn
                    : broker == null ? -1 : broker.brokerEpoch();
            members.add(new AlterPartitionRequestData.BrokerState().setBrokerId(member).setBrokerEpoch(epoch));
        }
        return members;
    }

    /**
     * Notes the partition epoch of each change made; logs the refused ones (a stale epoch, a leadership that moved:
     * the image will say what holds, and the next check decides).
     */
    private void onAnswer(AlterPartitionResponseData response, List<IsrChange> changes) {
        if (response.errorCode() != Errors.NONE.code()) {
            LOG.info("The controller refused {} ISR changes: {}", changes.size(), Errors.nameOf(response.errorCode()));
            return;
        }
        Map<Uuid, Map<Integer, AlterPartitionResponseData.PartitionData>> answers = new HashMap<>();
        for (AlterPartitionResponseData.TopicData topic : response.topics()) {
            for (AlterPartitionResponseData.PartitionData partition : topic.partitions()) {
                answers.computeIfAbsent(topic.topicId(), id -> new HashMap<>()).put(partition.partitionIndex(), partition);
            }
        }
        for (IsrChange change : changes) {
            AlterPartitionResponseData.PartitionData answer = answers.getOrDefault(change.partition().topicId(),
                    Map.of()).get(change.partition().topicPartition().partition());
            short error = answer == null ? Errors.UNKNOWN_SERVER_ERROR.code() : answer.errorCode();
            if (error == Errors.NONE.code()) {
                answeredEpochs.put(change.partition().topicPartition(),
                        new long[] {answer.partitionEpoch(), clockMs.getAsLong()});
            } else {
                LOG.info("{}: the controller refused the ISR change to {}: {}", change.partition(), change.isr(),
                        Errors.nameOf(error));
            }
        }
    }

    @Override
    public void close() {
        task.cancel(false);
    }
}
