package io.jolt.stream.cli;

import io.jolt.stream.kafka.JoltConfig;
import io.jolt.stream.kafka.RecordIngest;
import io.jolt.stream.kafka.TopicReader;
import io.jolt.stream.workload.Workload;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.StreamsConfig;

/** What demo and bench share: generate a workload, configure a local run, ingest, watch it being processed. */
final class LocalRuns {
    private LocalRuns() {}

    static Workload.Generated generate(Workload.Shape shape, PrintWriter err) {
        ProgressBar generating = new ProgressBar(err, "generating");
        AtomicLong done = new AtomicLong();
        Workload.Generated workload = Workload.generate(shape,
                n -> generating.update(done.addAndGet(n), shape.identities(), "identities signed"));
        generating.finish();
        return workload;
    }

    /** A service configuration for this machine; the environment (JOLT_*) still overrides it. */
    static JoltConfig config(String bootstrap, String applicationId, Path stateDir, int partitions, Integer streamThreads) {
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

    /** Sends every record of the workload (authority first) and waits for the acknowledgements. */
    static long ingest(RecordIngest ingest, Workload.Generated workload) {
        workload.authority().forEach(r -> ingest.send(ingest.authority(r)));
        workload.entries().forEach(e -> ingest.send(ingest.entry(e)));
        ingest.flush();
        return workload.authority().size() + workload.entries().size();
    }

    /**
     * How a phase of processing went: its records and seconds, and what of it fell in the service's
     * first minute (the records, the seconds, and the cores used until then since RUNNING).
     */
    record Processed(long records, double seconds, long inFirstMinute, double firstMinuteSeconds, CpuUse.Cores firstMinuteCores) {
        /** Records per second in the part of the first minute this phase covered (0 when it covered none). */
        double firstMinuteRate() {
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
    static Processed awaitProcessed(TopicReader reader, String applicationId, long baseline, long records, String label, PrintWriter err,
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
