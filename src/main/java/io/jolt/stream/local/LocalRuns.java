package io.jolt.stream.local;

import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.wire.RecordIngest;
import io.jolt.stream.wire.TopicGuard;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.workload.Workload;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.streams.StreamsConfig;

/** What demo and bench share: generate a workload, configure a local run, ingest, watch it being processed. */
public final class LocalRuns {
    private LocalRuns() {}

    public static Workload.Generated generate(Workload.Shape shape, PrintWriter err) {
        ProgressBar generating = new ProgressBar(err, "generating");
        AtomicLong done = new AtomicLong();
        Workload.Generated workload = Workload.generate(shape,
                n -> generating.update(done.addAndGet(n), shape.identities(), "identities signed"));
        generating.finish();
        return workload;
    }

    /** A service configuration for this machine; the environment (JOLT_*) still overrides it. */
    public static JoltConfig config(String bootstrap, String applicationId, Path stateDir, int partitions, Integer streamThreads) {
        Properties p = new Properties();
        p.setProperty(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.setProperty(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.setProperty(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.setProperty(JoltConfig.TOPIC_PARTITIONS, String.valueOf(partitions));
        p.setProperty("auto.offset.reset", "earliest");
        if (streamThreads != null) {
            p.setProperty(StreamsConfig.NUM_STREAM_THREADS_CONFIG, String.valueOf(streamThreads));
        }
        return JoltConfig.of(p, System.getenv());
    }

    /**
     * A local run's configuration with its own state dir under {@code stateRoot} (relative to the
     * checkout), and the topics of topology/topics.yaml created on the stack's cluster.
     */
    public static JoltConfig prepare(LocalStack stack, String applicationId, String stateRoot, int partitions, int streamThreads) throws Exception {
        Path stateDir = Files.createDirectories(LocalBroker.home().resolve(stateRoot).resolve(applicationId));
        JoltConfig config = config(stack.bootstrap(), applicationId, stateDir, partitions, streamThreads);
        try (Admin admin = Admin.create(config.adminProperties())) {
            TopicGuard.ensure(admin, Topics.load(partitions, null));
        }
        return config;
    }

    /** Attempts at producing a record before the run gives up on it. */
    static final int PRODUCE_ATTEMPTS = 3;

    /**
     * Sends every record of the workload (authority first) and checks every acknowledgement: a
     * record the broker did not take is sent again (the service's state does not depend on the
     * order), and after {@link #PRODUCE_ATTEMPTS} the run stops with the reason. Unchecked, a
     * lost send (seen: retries on a just-created topic ending in OUT_OF_ORDER_SEQUENCE_NUMBER)
     * left the progress bar waiting for ever on records that never arrived.
     */
    public static long ingest(RecordIngest ingest, Workload.Generated workload) {
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>(workload.authority().size() + workload.entries().size());
        workload.authority().forEach(r -> records.add(ingest.authority(r)));
        workload.entries().forEach(e -> records.add(ingest.entry(e)));
        List<ProducerRecord<String, byte[]>> pending = records;
        for (int attempt = 1; !pending.isEmpty(); attempt++) {
            List<Future<RecordMetadata>> acks = new ArrayList<>(pending.size());
            pending.forEach(r -> acks.add(ingest.send(r)));
            ingest.flush();
            List<ProducerRecord<String, byte[]>> failed = new ArrayList<>();
            Throwable reason = null;
            for (int i = 0; i < acks.size(); i++) {
                try {
                    acks.get(i).get();
                } catch (ExecutionException e) {
                    failed.add(pending.get(i));
                    reason = e.getCause();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while producing the workload", e);
                }
            }
            if (!failed.isEmpty() && attempt == PRODUCE_ATTEMPTS) {
                throw new IllegalStateException(failed.size() + " of " + records.size() + " records could not be produced after "
                        + PRODUCE_ATTEMPTS + " attempts: " + reason);
            }
            pending = failed;
        }
        return records.size();
    }

    /**
     * How a phase of processing went: its records and seconds, and what of it fell in the service's
     * first minute (the records, the seconds, and the cores used until then since RUNNING).
     */
    public record Processed(long records, double seconds, long inFirstMinute, double firstMinuteSeconds, CpuUse.Cores firstMinuteCores) {
        /** Records per second in the part of the first minute this phase covered (0 when it covered none). */
        public double firstMinuteRate() {
            return firstMinuteSeconds <= 0 ? 0 : inFirstMinute / firstMinuteSeconds;
        }
    }

    /** The first minute after the service is RUNNING: a cold start's JIT, caches and first transactions. */
    static final double FIRST_MINUTE_SECONDS = 60;

    /**
     * Shows a progress bar until {@code records} more input records than {@code baseline} are
     * committed, and notes how many were committed up to 60 s after {@code running} (the CPU
     * reading taken when the service became RUNNING), and the cores used until then.
     */
    public static Processed awaitProcessed(TopicReader reader, String applicationId, long baseline, long records, String label, PrintWriter err,
            CpuUse running, Optional<ProcessHandle> broker) throws Exception {
        long started = System.nanoTime();
        ProgressBar bar = new ProgressBar(err, label);
        long inFirstMinute = 0;
        double firstMinuteSeconds = 0;
        CpuUse.Cores firstMinuteCores = null;
        while (true) {
            long done = reader.progress(applicationId).processed() - baseline;
            CpuUse now = CpuUse.now(broker);
            double sinceRunning = (now.wallNanos() - running.wallNanos()) / 1e9;
            if (sinceRunning <= FIRST_MINUTE_SECONDS) {
                inFirstMinute = done;
                firstMinuteSeconds = sinceRunning - Math.max(0, (started - running.wallNanos()) / 1e9);
                firstMinuteCores = now.since(running);
            }
            double seconds = (now.wallNanos() - started) / 1e9;
            bar.update(done, records, String.format("records, %,.0f/s", done / Math.max(seconds, 1e-3)));
            if (done >= records) {
                bar.finish();
                return new Processed(done, seconds, inFirstMinute, firstMinuteSeconds, firstMinuteCores);
            }
            Thread.sleep(250);
        }
    }
}
