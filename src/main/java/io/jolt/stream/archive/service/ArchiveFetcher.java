package io.jolt.stream.archive.service;

import io.jolt.stream.archive.replay.ArchiveReplay.Archived;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.wire.AvroRecords;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads archived operations at the locations the index gave, by seeking: each fetch reads a
 * record batch or two from the offset asked (small fetches), and serves every wanted offset it
 * holds. The cost is one fetch per scattered operation, whatever the size of the archive.
 * Consumers are pooled (one per run being read); none has a group.
 */
final class ArchiveFetcher implements AutoCloseable {
    private static final Duration FETCH_TIMEOUT = Duration.ofSeconds(30);
    /** Records one fetch brings (32 KiB of archive records, about 300 bytes each compressed): read on, not sought. */
    static final long ONE_FETCH = 100;
    /** Consumers reading one answer's locations at once. */
    static final int PARALLEL_RUNS = 16;

    private final String topic;
    private final Properties properties = new Properties();
    private final ConfluentAvroSerde<ArchiveRecord> serde;
    private final BlockingQueue<KafkaConsumer<byte[], byte[]>> idle = new LinkedBlockingQueue<>();
    private final List<KafkaConsumer<byte[], byte[]>> all = new ArrayList<>();
    private final AtomicLong recordsRead = new AtomicLong();
    private final ExecutorService readers = Executors.newFixedThreadPool(PARALLEL_RUNS, runnable -> {
        Thread t = new Thread(runnable, "jolt-archive-reader");
        t.setDaemon(true);
        return t;
    });

    /** {@code client}: the bootstrap servers and the cluster's security settings. */
    ArchiveFetcher(String topic, Properties client, SchemaRegistry registry) {
        this.topic = topic;
        properties.putAll(client);
        properties.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        // A seek reads about one batch (the bolt's batches are at most 16 KiB before compression), not a megabyte.
        properties.setProperty(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, "32768");
        properties.setProperty(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, "32768");
        // The consumer prefetches the next position after each poll; at a partition's end the broker would hold that
        // fetch for fetch.max.wait.ms (500 by default), and the next seek would wait for it: every question, half a second.
        properties.setProperty(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "1");
        // One record per poll: the rest of a fetch stays buffered, and a consumer sends no fetch for a partition with
        // buffered records, so no prefetch is in flight when the next seek needs the connection (one fetch at a time).
        properties.setProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1");
        this.serde = new ConfluentAvroSerde<>(registry, ArchiveRecord.getClassSchema());
    }

    /** Archive records read from the broker so far, wanted or not (the cost of the answers). */
    long recordsRead() {
        return recordsRead.get();
    }

    /**
     * The operations at {@code locations} (in archive order), read committed. Each seek reads
     * one fetch (about {@link #ONE_FETCH} records), and serves every location it holds; seeks
     * wait on the broker, not on a core, so they are shared out, in order, among up to
     * {@link #PARALLEL_RUNS} consumers reading at the same time.
     */
    List<Archived> fetch(List<ArchiveLocation> locations) {
        List<List<ArchiveLocation>> runs = runs(locations);
        if (runs.size() == 1) {
            return fetchRun(runs.get(0));
        }
        List<Future<List<Archived>>> reading = runs.stream().map(run -> readers.submit(() -> fetchRun(run))).toList();
        List<Archived> out = new ArrayList<>(locations.size());
        for (Future<List<Archived>> run : reading) {
            out.addAll(joined(run));
        }
        return out;
    }

    /** Consecutive runs of locations holding about as many seeks each, a seek's locations never split between two. */
    static List<List<ArchiveLocation>> runs(List<ArchiveLocation> locations) {
        List<Integer> seeks = new ArrayList<>();
        ArchiveLocation seekedTo = null;
        for (int i = 0; i < locations.size(); i++) {
            ArchiveLocation at = locations.get(i);
            if (seekedTo == null || !sameFetch(seekedTo, at)) {
                seeks.add(i);
                seekedTo = at;
            }
        }
        int perRun = Math.max(1, (seeks.size() + PARALLEL_RUNS - 1) / PARALLEL_RUNS);
        List<List<ArchiveLocation>> runs = new ArrayList<>();
        for (int s = 0; s < seeks.size(); s += perRun) {
            int end = s + perRun < seeks.size() ? seeks.get(s + perRun) : locations.size();
            runs.add(locations.subList(seeks.get(s), end));
        }
        return runs.isEmpty() ? List.of(locations) : runs;
    }

    /** Whether the fetch a seek to {@code seekedTo} brings holds {@code at} too (locations come in archive order). */
    private static boolean sameFetch(ArchiveLocation seekedTo, ArchiveLocation at) {
        return seekedTo.partition() == at.partition() && at.offset() - seekedTo.offset() < ONE_FETCH;
    }

    private static List<Archived> joined(Future<List<Archived>> run) {
        try {
            return run.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the archive", e);
        }
    }

    /** One run, on one consumer: a seek where {@link #runs} put one, else reading on through what the last fetch brought. */
    private List<Archived> fetchRun(List<ArchiveLocation> locations) {
        KafkaConsumer<byte[], byte[]> consumer = borrow();
        try {
            List<Archived> out = new ArrayList<>(locations.size());
            ArchiveLocation seekedTo = null;
            for (ArchiveLocation at : locations) {
                TopicPartition tp = new TopicPartition(topic, at.partition());
                if (seekedTo == null || !sameFetch(seekedTo, at)) {
                    consumer.assign(List.of(tp));
                    consumer.seek(tp, at.offset());
                    seekedTo = at;
                }
                out.add(archived(readUpTo(consumer, tp, at.offset())));
            }
            return out;
        } finally {
            idle.add(consumer);
        }
    }

    /** Polls, a record at a time, up to the record at {@code offset}. */
    private ConsumerRecord<byte[], byte[]> readUpTo(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp, long offset) {
        long deadline = System.nanoTime() + FETCH_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                recordsRead.incrementAndGet();
                if (r.offset() == offset) {
                    return r;
                }
            }
            if (consumer.position(tp) > offset) {
                throw new IllegalStateException("the archive has no committed record at " + tp + "@" + offset);
            }
        }
        throw new IllegalStateException("cannot read " + tp + "@" + offset + " within " + FETCH_TIMEOUT);
    }

    private Archived archived(ConsumerRecord<byte[], byte[]> r) {
        ArchiveRecord a = serde.deserialize(r.topic(), r.value());
        return new Archived(a.getKind(), a.getIdentity(), AvroRecords.entry(a.getEntry()), r.partition(), r.offset(), r.timestamp());
    }

    private synchronized KafkaConsumer<byte[], byte[]> borrow() {
        KafkaConsumer<byte[], byte[]> consumer = idle.poll();
        if (consumer == null) {
            consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            all.add(consumer);
        }
        return consumer;
    }

    @Override
    public synchronized void close() {
        readers.shutdownNow();
        all.forEach(KafkaConsumer::close);
    }
}
