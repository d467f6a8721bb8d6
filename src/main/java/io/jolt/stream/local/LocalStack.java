package io.jolt.stream.local;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * What a local run (demo, bench) starts and must stop: a real local broker unless a cluster was
 * given, and everything opened on it, closed in reverse order (so the broker goes last). Closing
 * twice is harmless: a shutdown hook and the end of a try block may both close it.
 */
public final class LocalStack implements AutoCloseable {
    private final LocalBroker broker;
    private final String bootstrap;
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private boolean closed;

    private LocalStack(LocalBroker broker, String bootstrap) {
        this.broker = broker;
        this.bootstrap = bootstrap;
    }

    /** A fresh local broker named {@code name} when {@code bootstrap} is null, else the given cluster. */
    public static LocalStack start(String name, String bootstrap, PrintWriter err) throws IOException, InterruptedException {
        if (bootstrap != null) {
            return new LocalStack(null, bootstrap);
        }
        err.println(name + ": starting a real Kafka broker (deploy/start-kafka.sh) ...");
        err.flush();
        LocalBroker broker = LocalBroker.start(name);
        return new LocalStack(broker, broker.bootstrapServers());
    }

    public String bootstrap() {
        return bootstrap;
    }

    /** The local broker's process, to count its CPU; empty for a given cluster. */
    public Optional<ProcessHandle> brokerProcess() {
        return broker == null ? Optional.empty() : broker.process();
    }

    /** Opens a resource on the stack: it is closed before everything opened earlier, and before the broker. */
    public synchronized <T extends AutoCloseable> T open(T resource) {
        opened.push(resource);
        return resource;
    }

    /** Closes a resource early (it is not needed any more), before the stack goes. */
    public synchronized void closeEarly(AutoCloseable resource) throws Exception {
        if (opened.remove(resource)) {
            resource.close();
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        while (!opened.isEmpty()) {
            AutoCloseable next = opened.pop();
            try {
                next.close();
            } catch (Exception e) {
                System.err.println("jolt: could not close " + next + ": " + e);
            }
        }
        if (broker != null) {
            broker.close();
        }
    }
}
