package io.jolt.stream.service;

import io.jolt.stream.crypto.Verifiers;
import io.jolt.stream.processor.Bolt;
import io.jolt.stream.processor.BoltBeforeCommit;
import io.jolt.stream.processor.JoltTopology;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.wire.TopicGuard;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running service: checks the topics, then runs the topology under exactly-once, archiving
 * through the bolt it is given (and closes with it); a transaction commits only once the bolt
 * has every operation before it in the archive or named as lost ({@link BoltBeforeCommit}).
 *
 * @param <B> the bolt's type, so that whoever wired it in can read its counts
 */
public final class JoltService<B extends Bolt> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JoltService.class);

    private final KafkaStreams streams;
    private final B bolt;
    private final SignatureCheck signatures;

    private JoltService(KafkaStreams streams, B bolt, SignatureCheck signatures) {
        this.streams = streams;
        this.bolt = bolt;
        this.signatures = signatures;
    }

    /**
     * Chooses the fastest signature check that loads here (same rule, see {@link Verifiers}),
     * creates missing topics, refuses contradicting ones, opens the bolt (once the archive topic
     * exists, so that its producer finds it) and starts processing.
     */
    public static <B extends Bolt> JoltService<B> start(JoltConfig config, SchemaRegistry registry, Supplier<B> openBolt) {
        return startWith(config, registry, openBolt, streams -> { });
    }

    /** As {@link #start(JoltConfig, SchemaRegistry, Supplier)}, with {@code restores} told of every store an active task restores. */
    public static <B extends Bolt> JoltService<B> start(JoltConfig config, SchemaRegistry registry, Supplier<B> openBolt, StateRestoreListener restores) {
        return startWith(config, registry, openBolt, streams -> streams.setGlobalStateRestoreListener(restores));
    }

    /** {@code beforeStart} sees Kafka Streams made but not started: the only moment a restore listener can be registered. */
    private static <B extends Bolt> JoltService<B> startWith(JoltConfig config, SchemaRegistry registry, Supplier<B> openBolt,
            Consumer<KafkaStreams> beforeStart) {
        SignatureCheck signatures = Verifiers.fastest().check();
        try (Admin admin = Admin.create(config.adminProperties())) {
            TopicGuard.ensure(admin, Topics.load(config.topicPartitions(), config.topicReplication()));
        }
        B bolt = openBolt.get();
        KafkaStreams streams = new KafkaStreams(JoltTopology.build(registry, bolt, config.forgetting(), signatures), config.streamsProperties(),
                new BoltBeforeCommit(bolt));
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("stream thread failed; replacing it", e);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        beforeStart.accept(streams);
        streams.start();
        return new JoltService<>(streams, bolt, signatures);
    }

    public KafkaStreams streams() {
        return streams;
    }

    public B bolt() {
        return bolt;
    }

    /** The signature check its processors use; the HTTP answers that verify use it too. */
    public SignatureCheck signatures() {
        return signatures;
    }

    /** Waits until the instance is RUNNING (or throws when it fails or the time is up). */
    public JoltService<B> awaitRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING) {
                throw new IllegalStateException("Kafka Streams is " + streams.state());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Kafka Streams not RUNNING after " + timeout + " (state " + streams.state() + ")");
            }
            Thread.sleep(50);
        }
        return this;
    }

    /**
     * Stops cleanly and leaves the consumer group, so the partitions move to the other instances
     * at once instead of after the session timeout (Streams stays in the group by default).
     */
    @Override
    public void close() {
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        bolt.close();
    }
}
