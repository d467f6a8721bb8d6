package io.jolt.stream.bench;

import io.jolt.stream.wire.RecordIngest;
import io.jolt.stream.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The soak's offered load: fresh identities (the demo's workload shape, a new seed per chunk),
 * generated a chunk ahead on one thread and produced at a fixed rate on another, so that the
 * service sees a steady stream of new identities for as long as the soak runs. Every send is
 * checked: one the broker refuses is sent once more, and a second refusal stops the soak.
 */
public final class SoakFeed implements AutoCloseable {
    public static final int CHUNK_IDENTITIES = 100;

    private final RecordIngest ingest;
    private final double rate;
    private final BlockingQueue<List<ProducerRecord<String, byte[]>>> chunks = new ArrayBlockingQueue<>(2);
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong resent = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread generator;
    private final Thread producer;
    private volatile boolean running = true;

    public SoakFeed(RecordIngest ingest, double recordsPerSecond) {
        this.ingest = ingest;
        this.rate = recordsPerSecond;
        this.generator = new Thread(this::generate, "soak-generator");
        this.producer = new Thread(this::produce, "soak-producer");
        generator.setDaemon(true);
        producer.setDaemon(true);
    }

    public SoakFeed start() {
        generator.start();
        producer.start();
        return this;
    }

    public long sent() {
        return sent.get();
    }

    public long resent() {
        return resent.get();
    }

    /** Why the feed stopped early, if it did. */
    public Throwable failure() {
        return failure.get();
    }

    private void generate() {
        for (long seed = 1_000; running; seed++) {
            Workload.Generated chunk = Workload.generate(new Workload.Shape(CHUNK_IDENTITIES, 3, 10, seed), n -> { });
            List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
            chunk.authority().forEach(a -> records.add(ingest.authority(a)));
            chunk.entries().forEach(e -> records.add(ingest.entry(e)));
            try {
                while (running && !chunks.offer(records, 100, TimeUnit.MILLISECONDS)) {
                    // the producer is a chunk behind: wait
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Sends record n no earlier than n / rate seconds after the start. */
    private void produce() {
        long start = System.nanoTime();
        long n = 0;
        try {
            while (running) {
                List<ProducerRecord<String, byte[]>> chunk = chunks.poll(100, TimeUnit.MILLISECONDS);
                for (int i = 0; chunk != null && i < chunk.size() && running; i++, n++) {
                    long due = start + (long) (n * 1e9 / rate);
                    long ahead = due - System.nanoTime();
                    if (ahead > 2_000_000) {
                        TimeUnit.NANOSECONDS.sleep(ahead);
                    }
                    send(chunk.get(i), true);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void send(ProducerRecord<String, byte[]> record, boolean firstAttempt) {
        if (firstAttempt) {
            sent.incrementAndGet();
        }
        ingest.send(record, (metadata, error) -> {
            if (error == null) {
                return;
            }
            if (firstAttempt) {
                resent.incrementAndGet();
                send(record, false);
            } else {
                failure.compareAndSet(null, error);
                running = false;
            }
        });
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        producer.join(10_000);
        generator.join(30_000);
        ingest.flush();
    }
}
