package io.jolt.stream.faults;

import io.jolt.stream.testing.ForkedService;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Asks the live instances for identities, round robin, all through a fault, and counts the
 * answers by status: 200, 404 (not yet seen), 503 (not ready: rebalancing), anything else, and
 * -1 for no answer at all (the instance asked was being killed).
 */
final class QueryProbe implements AutoCloseable {
    private final List<ForkedService> live = new CopyOnWriteArrayList<>();
    private final Map<Integer, Integer> answers = new TreeMap<>();
    private final Map<Integer, String> firstBodies = new TreeMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Object asking = new Object();
    private final Thread thread;

    QueryProbe(List<String> identities) {
        thread = new Thread(() -> probe(identities), "query-probe");
        thread.setDaemon(true);
        thread.start();
    }

    void joined(ForkedService instance) {
        live.add(instance);
    }

    /** Called before the instance is stopped or killed: it is not asked any more (a question in flight is answered first). */
    void leaving(ForkedService instance) {
        synchronized (asking) {
            live.remove(instance);
        }
    }

    private void probe(List<String> identities) {
        int i = 0;
        while (running.get()) {
            int status;
            synchronized (asking) {
                List<ForkedService> now = List.copyOf(live);
                status = now.isEmpty() ? 0 : ask(now.get(i % now.size()), "/v1/identities/" + identities.get(i % identities.size()));
            }
            if (status == 0) {
                pause();
                continue;
            }
            synchronized (answers) {
                answers.merge(status, 1, Integer::sum);
            }
            i++;
            pause();
        }
    }

    /** The status; the first body of each status other than 200 is kept, to say what went wrong. */
    private int ask(ForkedService instance, String path) {
        try {
            var response = instance.get(path);
            if (response.statusCode() != 200) {
                synchronized (answers) {
                    firstBodies.putIfAbsent(response.statusCode(), response.body());
                }
            }
            return response.statusCode();
        } catch (java.io.IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** For each status other than 200, the first body answered with it. */
    Map<Integer, String> firstBodies() {
        synchronized (answers) {
            return new TreeMap<>(firstBodies);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    Map<Integer, Integer> answers() {
        synchronized (answers) {
            return new TreeMap<>(answers);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(10_000);
    }
}
