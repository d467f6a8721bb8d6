package io.jolt.stream.bench;

import io.jolt.stream.archive.KafkaBolt;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.local.ProgressBar;
import io.jolt.stream.wire.TopicGuard;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The archives {@code jolt archive bench} asks: what the bolt wrote for a workload, grown by
 * copies of it under other identity names, with one probe identity's operations spread evenly
 * through the partition it shares with others (the worst case for an index: no two of them share
 * a batch when the archive is large). Every archive holds the probe's operations exactly once, as the bolt wrote them.
 */
public final class ArchiveBenchFeed {
    private final List<ConsumerRecord<String, byte[]>> bolted;
    private final String probe;
    private final List<ConsumerRecord<String, byte[]>> probeRecords;
    private final List<ConsumerRecord<String, byte[]>> others;
    private final ConfluentAvroSerde<ArchiveRecord> serde;

    /** The probe is the identity with the most archived operations (ties: the first name). */
    public ArchiveBenchFeed(List<ConsumerRecord<String, byte[]>> bolted, SchemaRegistry registry) {
        this.bolted = List.copyOf(bolted);
        Map<String, Long> sizes = bolted.stream().collect(Collectors.groupingBy(ConsumerRecord::key, Collectors.counting()));
        this.probe = sizes.entrySet().stream()
                .max(Comparator.<Map.Entry<String, Long>>comparingLong(Map.Entry::getValue).thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .orElseThrow(() -> new IllegalStateException("the bolt archived nothing")).getKey();
        this.probeRecords = bolted.stream().filter(r -> r.key().equals(probe)).toList();
        this.others = bolted.stream().filter(r -> !r.key().equals(probe)).toList();
        this.serde = new ConfluentAvroSerde<>(registry, ArchiveRecord.getClassSchema());
    }

    public String probe() {
        return probe;
    }

    public int probeOperations() {
        return probeRecords.size();
    }

    /** Operations in an archive of {@code copies} copies of the workload's. */
    public long size(int copies) {
        return (long) copies * bolted.size();
    }

    /**
     * Replaces the topic {@code spec} names with an archive of {@code copies} copies: the first
     * the bolt's own records (the probe's spread through its partition), the others renamed "identity~n".
     */
    public void write(Admin admin, Topics.Spec spec, Properties producerProperties, int copies, PrintWriter err) throws Exception {
        recreate(admin, spec);
        ProgressBar bar = new ProgressBar(err, "archiving");
        AtomicLong acknowledged = new AtomicLong();
        AtomicReference<Exception> failed = new AtomicReference<>();
        long total = size(copies);
        // Written as the bolt writes: the batches the archive service reads are like the bolt's.
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaBolt.archiveWrites(producerProperties), new StringSerializer(),
                new ByteArraySerializer())) {
            AtomicLong written = new AtomicLong();
            inWriteOrder(copies, spec.partitions(), (r, copy) -> {
                send(producer, copyOf(spec.name(), r, copy), acknowledged, failed);
                if (written.incrementAndGet() % 10_000 == 0) {
                    bar.update(written.get(), total, "operations written");
                }
            });
            producer.flush();
        }
        bar.update(acknowledged.get(), total, "operations written");
        bar.finish();
        if (failed.get() != null) {
            throw new IllegalStateException("the archive could not be written: " + failed.get(), failed.get());
        }
    }

    /** One archive record to write: a record the bolt wrote, as it is ({@code copy} 0) or renamed for copy {@code copy}. */
    interface Placement {
        void place(ConsumerRecord<String, byte[]> record, int copy);
    }

    /**
     * The archive of {@code copies} copies over {@code partitions} partitions, in the order it is
     * written. The probe's j-th operation goes after (j + 1/2) / n of the other records that the
     * partitioner sends to the probe's partition, so that its operations lie evenly apart in the
     * partition they share, whatever order the bolt's records come in.
     */
    void inWriteOrder(int copies, int partitions, Placement each) {
        int probePartition = partitionOf(probe, partitions);
        long beside = 0;
        for (int copy = 0; copy < copies; copy++) {
            for (ConsumerRecord<String, byte[]> r : copy == 0 ? others : bolted) {
                beside += partitionOf(keyOf(r, copy), partitions) == probePartition ? 1 : 0;
            }
        }
        long passed = 0;
        int nextProbe = 0;
        for (int copy = 0; copy < copies; copy++) {
            for (ConsumerRecord<String, byte[]> r : copy == 0 ? others : bolted) {
                if (partitionOf(keyOf(r, copy), partitions) == probePartition) {
                    while (nextProbe < probeRecords.size() && (nextProbe + 0.5) * beside / probeRecords.size() <= passed) {
                        each.place(probeRecords.get(nextProbe++), 0);
                    }
                    passed++;
                }
                each.place(r, copy);
            }
        }
        while (nextProbe < probeRecords.size()) {
            each.place(probeRecords.get(nextProbe++), 0);
        }
    }

    /** The key of {@code r} in copy {@code copy}. */
    static String keyOf(ConsumerRecord<String, byte[]> r, int copy) {
        return copy == 0 ? r.key() : r.key() + "~" + copy;
    }

    /** The partition the default partitioner sends {@code key} to. */
    static int partitionOf(String key, int partitions) {
        return BuiltInPartitioner.partitionForKey(key.getBytes(StandardCharsets.UTF_8), partitions);
    }

    private static void send(KafkaProducer<String, byte[]> producer, ProducerRecord<String, byte[]> record, AtomicLong acknowledged,
            AtomicReference<Exception> failed) {
        producer.send(record, (metadata, error) -> {
            if (error == null) {
                acknowledged.incrementAndGet();
            } else {
                failed.compareAndSet(null, error);
            }
        });
    }

    /** {@code r} as the bolt wrote it (copy 0), or renamed "identity~copy". */
    private ProducerRecord<String, byte[]> copyOf(String topic, ConsumerRecord<String, byte[]> r, int copy) {
        if (copy == 0) {
            return new ProducerRecord<>(topic, r.key(), r.value());
        }
        ArchiveRecord op = serde.deserialize(Topics.ARCHIVE, r.value());
        op.setIdentity(keyOf(r, copy));
        // Registered under the archive's subject: the copy carries the same schema id as the bolt's records.
        return new ProducerRecord<>(topic, op.getIdentity(), serde.serialize(Topics.ARCHIVE, op));
    }

    /** Deletes the archive topic (if any), waits until it is gone, and creates it again as topics.yaml says. */
    private static void recreate(Admin admin, Topics.Spec spec) throws Exception {
        try {
            admin.deleteTopics(Set.of(spec.name())).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(spec.name())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(spec.name() + " is still there a minute after its deletion");
            }
            Thread.sleep(200);
        }
        while (true) {
            try {
                TopicGuard.ensure(admin, List.of(spec));
                return;
            } catch (RuntimeException e) {
                // The controller may still be removing the old topic's partitions: try again for a while.
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }
}
