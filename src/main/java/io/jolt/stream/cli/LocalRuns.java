package io.jolt.stream.cli;

import io.jolt.stream.kafka.JoltConfig;
import io.jolt.stream.kafka.RecordIngest;
import io.jolt.stream.kafka.TopicReader;
import io.jolt.stream.workload.Workload;
import java.io.PrintWriter;
import java.nio.file.Path;
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

    /** Shows a progress bar until {@code records} more input records than {@code baseline} are committed. */
    static void awaitProcessed(TopicReader reader, String applicationId, long baseline, long records, String label, PrintWriter err)
            throws Exception {
        long started = System.nanoTime();
        ProgressBar bar = new ProgressBar(err, label);
        while (true) {
            long done = reader.progress(applicationId).processed() - baseline;
            double seconds = (System.nanoTime() - started) / 1e9;
            bar.update(done, records, String.format("records, %,.0f/s", done / Math.max(seconds, 1e-3)));
            if (done >= records) {
                bar.finish();
                return;
            }
            Thread.sleep(250);
        }
    }
}
