package io.jolt.stream.archive;

import io.jolt.stream.avro.ArchiveLoss;
import io.jolt.stream.avro.ArchiveLossKind;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.processor.Bolt;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotEnoughReplicasAfterAppendException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bolt on Kafka: {@code jolt.archive.v2} written by a producer of its own, outside the
 * stream's exactly-once transaction. Inside it, one failed archive write would abort the
 * transaction and stop the live topology; outside it the archive is at-least-once (a task that
 * re-processes after an abort may append an operation twice: readers deduplicate by dot) and a
 * failed write is reported on {@code jolt.archive.losses.v2}, in the log and as a counter,
 * naming the dot, entry hash and source offset, never a bare count.
 *
 * <p>Every write first asks for the promise of all in-sync replicas ({@code acks=all},
 * idempotent). When the cluster cannot give it (fewer in-sync replicas than the topic's
 * {@code min.insync.replicas}, or a write that kept failing for a retriable reason), the
 * operation is written again to the partition leader alone ({@code acks=1}): if that lands, the
 * operation is in the archive without its durability promise and is reported as
 * {@code DEGRADED_DURABILITY}, not as lost; a write the broker appended before the replicas fell
 * behind ({@code NotEnoughReplicasAfterAppend}) is reported the same way without a second write.
 * Only what neither write could keep is {@code LOST}.
 */
public final class KafkaBolt implements Bolt, MeterBinder {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaBolt.class);

    /** Attempts of the durable write before the leader-only one: bounded so that a missing promise surfaces in seconds. */
    static final int DURABLE_RETRIES = 5;

    private final KafkaProducer<String, byte[]> producer;
    private final KafkaProducer<String, byte[]> leaderOnly;
    private final ConfluentAvroSerde<ArchiveRecord> archive;
    private final ConfluentAvroSerde<ArchiveLoss> losses;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final AtomicLong degraded = new AtomicLong();

    public KafkaBolt(Properties clientProperties, SchemaRegistry registry) {
        Properties p = archiveWrites(clientProperties);
        // A broker that cannot be reached must not block the stream thread for long: that is a loss.
        p.setProperty(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        p.setProperty(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        p.setProperty(ProducerConfig.RETRIES_CONFIG, String.valueOf(DURABLE_RETRIES));
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        Properties leader = new Properties();
        leader.putAll(p);
        leader.setProperty(ProducerConfig.ACKS_CONFIG, "1");
        leader.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false"); // idempotence requires acks=all
        leader.setProperty(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        leader.remove(ProducerConfig.RETRIES_CONFIG);
        this.leaderOnly = new KafkaProducer<>(leader, new StringSerializer(), new ByteArraySerializer());
        this.archive = new ConfluentAvroSerde<>(registry, ArchiveRecord.getClassSchema());
        this.losses = new ConfluentAvroSerde<>(registry, ArchiveLoss.getClassSchema());
        // Learn both topics now, so that the first append and the first loss report do not wait for metadata.
        for (String topic : new String[] {Topics.ARCHIVE, Topics.ARCHIVE_LOSSES}) {
            try {
                producer.partitionsFor(topic);
            } catch (RuntimeException e) {
                LOG.warn("bolt: no metadata for {} yet: {}", topic, e.toString());
            }
        }
    }

    /** How the bolt writes the archive (all replicas' promise, idempotent, batched and compressed), over {@code client}. */
    public static Properties archiveWrites(Properties client) {
        Properties p = new Properties();
        p.putAll(client);
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.setProperty(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        return p;
    }

    @Override
    public void append(ArchiveRecord operation) {
        ProducerRecord<String, byte[]> write;
        try {
            write = new ProducerRecord<>(Topics.ARCHIVE, operation.getIdentity(), archive.serialize(Topics.ARCHIVE, operation));
            producer.send(write, (metadata, error) -> {
                if (error == null) {
                    written.incrementAndGet();
                } else if (error instanceof NotEnoughReplicasAfterAppendException) {
                    written.incrementAndGet();
                    report(operation, ArchiveLossKind.DEGRADED_DURABILITY, error);
                } else if (error instanceof RetriableException) {
                    writeToLeaderOnly(operation, write, error);
                } else {
                    report(operation, ArchiveLossKind.LOST, error);
                }
            });
        } catch (RuntimeException e) {
            report(operation, ArchiveLossKind.LOST, e);
        }
    }

    /** The second write, without the replicas' promise: landed, it is degraded; failed, it is lost. */
    private void writeToLeaderOnly(ArchiveRecord operation, ProducerRecord<String, byte[]> write, Exception durableError) {
        try {
            leaderOnly.send(write, (metadata, error) -> {
                if (error == null) {
                    written.incrementAndGet();
                    report(operation, ArchiveLossKind.DEGRADED_DURABILITY, durableError);
                } else {
                    report(operation, ArchiveLossKind.LOST, error);
                }
            });
        } catch (RuntimeException e) {
            report(operation, ArchiveLossKind.LOST, e);
        }
    }

    private void report(ArchiveRecord operation, ArchiveLossKind kind, Exception error) {
        (kind == ArchiveLossKind.LOST ? lost : degraded).incrementAndGet();
        LOG.warn("bolt {}: {} {}/{}#{} entry {} from {}-{}@{}: {}",
                kind == ArchiveLossKind.LOST ? "LOST an archive write" : "wrote with degraded durability", operation.getKind(),
                operation.getIdentity(), operation.getDeviceId(), operation.getDeviceSequence().toPlainString(),
                Hex.encode(operation.getEntryHash().bytes()), operation.getSourceTopic(), operation.getSourcePartition(),
                operation.getSourceOffset(), error.toString());
        ArchiveLoss loss = new ArchiveLoss(kind, operation.getKind(), operation.getIdentity(), operation.getDeviceId(),
                operation.getDeviceSequence(), operation.getEntryHash(), operation.getSourceTopic(), operation.getSourcePartition(),
                operation.getSourceOffset(), error.toString());
        sendReport(operation, new ProducerRecord<>(Topics.ARCHIVE_LOSSES, operation.getIdentity(), losses.serialize(Topics.ARCHIVE_LOSSES, loss)), 3);
    }

    /** A loss report is retried a few times; when it fails too, the log line above is what remains. */
    private void sendReport(ArchiveRecord operation, ProducerRecord<String, byte[]> report, int attemptsLeft) {
        try {
            producer.send(report, (m, e) -> {
                if (e != null && attemptsLeft > 1) {
                    sendReport(operation, report, attemptsLeft - 1);
                } else if (e != null) {
                    LOG.error("bolt: could not report the loss of {}/{}#{} either: {}", operation.getIdentity(), operation.getDeviceId(),
                            operation.getDeviceSequence().toPlainString(), e.toString());
                }
            });
        } catch (RuntimeException e) {
            LOG.error("bolt: could not report the loss of {}/{}#{} either: {}", operation.getIdentity(), operation.getDeviceId(),
                    operation.getDeviceSequence().toPlainString(), e.toString());
        }
    }

    public long written() {
        return written.get();
    }

    public long lost() {
        return lost.get();
    }

    public long degraded() {
        return degraded.get();
    }

    /** Waits for every pending append (and loss report), second writes included. */
    @Override
    public void flush() {
        producer.flush();
        leaderOnly.flush();
        producer.flush(); // reports of second writes go through the first producer
    }

    @Override
    public void close() {
        producer.close();
        leaderOnly.close();
    }

    /** Its own counts: what it kept, lost (each named on jolt.archive.losses.v2) and wrote without its durability promise. */
    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("jolt.archive.written", this, KafkaBolt::written).description("archive operations the bolt kept").register(registry);
        FunctionCounter.builder("jolt.archive.lost", this, KafkaBolt::lost)
                .description("archive operations the bolt lost (named on jolt.archive.losses.v2)").register(registry);
        FunctionCounter.builder("jolt.archive.degraded", this, KafkaBolt::degraded)
                .description("archive writes that landed with degraded durability").register(registry);
    }
}
