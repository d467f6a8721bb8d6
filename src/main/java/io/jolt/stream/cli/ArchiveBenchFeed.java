package io.jolt.stream.cli;

import io.jolt.stream.archive.KafkaBolt;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.kafka.TopicGuard;
import io.jolt.stream.kafka.Topics;
import io.jolt.stream.kafka.serde.ConfluentAvroSerde;
import io.jolt.stream.kafka.serde.SchemaRegistry;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The archives {@code jolt archive bench} asks: what the bolt wrote for a workload, grown by
 * copies of it under other identity names, with one probe identity's operations spread evenly
 * through the whole archive (the worst case for an index: no two of them share a batch when the
 * archive is large). Every archive holds the probe's operations exactly once, as the bolt wrote them.
 */
final class ArchiveBenchFeed {
    private final List<ConsumerRecord<String, byte[]>> bolted;
    private final String probe;
    private final List<ConsumerRecord<String, byte[]>> probeRecords;
    private final List<ConsumerRecord<String, byte[]>> others;
    private final ConfluentAvroSerde<ArchiveRecord> serde;

    /** The probe is the identity with the most archived operations (ties: the first name). */
    ArchiveBenchFeed(List<ConsumerRecord<String, byte[]>> bolted, SchemaRegistry registry) {
        this.bolted = List.copyOf(bolted);
        Map<String, Long> sizes = bolted.stream().collect(Collectors.groupingBy(ConsumerRecord::key, Collectors.counting()));
        this.probe = sizes.entrySet().stream()
                .max(Comparator.<Map.Entry<String, Long>>comparingLong(Map.Entry::getValue).thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .orElseThrow(() -> new IllegalStateException("the bolt archived nothing")).getKey();
        this.probeRecords = bolted.stream().filter(r -> r.key().equals(probe)).toList();
        this.others = bolted.stream().filter(r -> !r.key().equals(probe)).toList();
        this.serde = new ConfluentAvroSerde<>(registry, ArchiveRecord.getClassSchema());
    }

    String probe() {
        return probe;
    }

    int probeOperations() {
        return probeRecords.size();
    }

    /** Operations in an archive of {@code copies} copies of the workload's. */
    long size(int copies) {
        return (long) copies * bolted.size();
    }

    /**
     * Replaces the topic {@code spec} names with an archive of {@code copies} copies: the first
     * the bolt's own records (the probe's spread through everything), the others renamed "identity~n".
     */
    void write(Admin admin, Topics.Spec spec, Properties producerProperties, int copies, PrintWriter err) throws Exception {
        recreate(admin, spec);
        long others = size(copies) - probeRecords.size();
        ProgressBar bar = new ProgressBar(err, "archiving");
        AtomicLong acknowledged = new AtomicLong();
        AtomicReference<Exception> failed = new AtomicReference<>();
        // Written as the bolt writes: the batches the archive service reads are like the bolt's.
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaBolt.archiveWrites(producerProperties), new StringSerializer(),
                new ByteArraySerializer())) {
            long written = 0;
            int nextProbe = 0;
            for (int copy = 0; copy < copies; copy++) {
                Function<ConsumerRecord<String, byte[]>, ProducerRecord<String, byte[]>> as = copy == 0 ? asWritten(spec.name()) : renamedTo(spec.name(), copy);
                for (ConsumerRecord<String, byte[]> r : copy == 0 ? this.others : bolted) {
                    // The probe's j-th operation goes after (j + 1/2) / n of everything else.
                    while (nextProbe < probeRecords.size() && (nextProbe + 0.5) * others / probeRecords.size() <= written) {
                        send(producer, asWritten(spec.name()).apply(probeRecords.get(nextProbe++)), acknowledged, failed);
                    }
                    send(producer, as.apply(r), acknowledged, failed);
                    if (++written % 10_000 == 0) {
                        bar.update(written, others, "operations written");
                    }
                }
            }
            while (nextProbe < probeRecords.size()) {
                send(producer, asWritten(spec.name()).apply(probeRecords.get(nextProbe++)), acknowledged, failed);
            }
            producer.flush();
        }
        bar.update(acknowledged.get(), size(copies), "operations written");
        bar.finish();
        if (failed.get() != null) {
            throw new IllegalStateException("the archive could not be written: " + failed.get(), failed.get());
        }
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

    private static Function<ConsumerRecord<String, byte[]>, ProducerRecord<String, byte[]>> asWritten(String topic) {
        return r -> new ProducerRecord<>(topic, r.key(), r.value());
    }

    private Function<ConsumerRecord<String, byte[]>, ProducerRecord<String, byte[]>> renamedTo(String topic, int copy) {
        return r -> {
            ArchiveRecord op = serde.deserialize(Topics.ARCHIVE, r.value());
            op.setIdentity(r.key() + "~" + copy);
            // Registered under the archive's subject: the copy carries the same schema id as the bolt's records.
            return new ProducerRecord<>(topic, op.getIdentity(), serde.serialize(Topics.ARCHIVE, op));
        };
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
