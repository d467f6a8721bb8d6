package io.jolt.stream.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.faults.AnswerAudit.Accepted;
import io.jolt.stream.faults.AnswerAudit.Answer;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.json.RecordJson;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The client host: ingests a workload over {@code POST /v1/records} to every instance in turn,
 * at a steady pace, posting a batch again elsewhere when its answer never came or a line was not
 * produced (a client's retry: a record may land twice, which the merge does not see); and asks
 * the instances for identities all the while, recording every answer with its times.
 */
final class ClusterClient implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final int BATCH = 20;

    /** An instance as the client knows it. */
    record Instance(String name, String baseUrl) {}

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<Instance> instances;
    private final long startNanos;
    private final List<Accepted> accepted = new CopyOnWriteArrayList<>();
    private final List<Answer> answers = new CopyOnWriteArrayList<>();
    private final AtomicInteger reposted = new AtomicInteger();
    private final AtomicInteger refusedAtDoor = new AtomicInteger();
    private final AtomicBoolean reading = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();

    ClusterClient(List<Instance> instances, long startNanos) {
        this.instances = List.copyOf(instances);
        this.startNanos = startNanos;
    }

    /** Posts the records in batches spread evenly over {@code spread}, round robin over the instances, on one thread per instance. */
    void ingest(List<Object> records, Duration spread) {
        int batches = (records.size() + BATCH - 1) / BATCH;
        for (int lane = 0; lane < instances.size(); lane++) {
            int first = lane;
            start("ingest-" + instances.get(lane).name(), () -> {
                for (int b = first; b < batches; b += instances.size()) {
                    sleepUntil(spread.toNanos() * b / batches);
                    post(records.subList(b * BATCH, Math.min(records.size(), (b + 1) * BATCH)), b);
                }
            });
        }
    }

    /** Asks random instances for random identities, on {@code readers} threads, until {@link #close()}. */
    void read(List<String> identities, int readers, long seed) {
        for (int r = 0; r < readers; r++) {
            Random random = new Random(seed + r);
            start("reader-" + r, () -> {
                while (reading.get()) {
                    ask(instances.get(random.nextInt(instances.size())), identities.get(random.nextInt(identities.size())));
                    pause(25);
                }
            });
        }
    }

    /** Waits until every batch was accepted somewhere. */
    void awaitIngested(Duration timeout) throws InterruptedException {
        for (Thread t : threads) {
            if (t.getName().startsWith("ingest-")) {
                t.join(timeout.toMillis());
                if (t.isAlive()) {
                    throw new IllegalStateException(t.getName() + " still posting after " + timeout);
                }
            }
        }
    }

    private void post(List<Object> batch, int b) {
        List<Object> left = batch;
        for (int attempt = 0; !left.isEmpty(); attempt++) {
            if (attempt > 0) {
                reposted.addAndGet(left.size());
                pause(500);
            }
            left = postOnce(instances.get((b + attempt) % instances.size()), left);
        }
    }

    /** Posts the lines; returns those to post again (the answer never came, or the line was not produced). */
    private List<Object> postOnce(Instance instance, List<Object> lines) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Object r : lines) {
            body.writeBytes((r instanceof AuthorityRecord a ? RecordJson.write(a) : RecordJson.write((Entry) r)).getBytes(StandardCharsets.UTF_8));
            body.write('\n');
        }
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(URI.create(instance.baseUrl() + "/v1/records")).timeout(Duration.ofSeconds(45))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            return lines;
        }
        long at = System.nanoTime() - startNanos;
        if (response.statusCode() != 200 && response.statusCode() != 207) {
            return lines;
        }
        List<Object> again = new ArrayList<>();
        try {
            for (JsonNode line : JSON.readTree(response.body()).get("results")) {
                Object record = lines.get(line.get("line").asInt() - 1);
                if (line.get("accepted").asBoolean()) {
                    accepted.add(new Accepted(record, line.get("topic").asText(), line.get("partition").asInt(), line.get("offset").asLong(), at));
                } else if (line.get("reason").asText().equals("invalid_entry")) {
                    refusedAtDoor.incrementAndGet(); // the workload's defective entries: refused for good, as documented
                } else {
                    again.add(record);
                }
            }
        } catch (Exception e) {
            return lines;
        }
        return again;
    }

    private void ask(Instance instance, String identity) {
        long asked = System.nanoTime() - startNanos;
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(instance.baseUrl() + "/v1/identities/" + identity))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            answers.add(new Answer(identity, instance.name(), asked, System.nanoTime() - startNanos, r.statusCode(), r.body(),
                    r.headers().firstValue("Jolt-Position").orElse(null), r.headers().firstValue("Retry-After").isPresent()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            answers.add(new Answer(identity, instance.name(), asked, System.nanoTime() - startNanos, -1, e.toString(), null, false));
        }
    }

    List<Accepted> accepted() {
        return Collections.unmodifiableList(accepted);
    }

    List<Answer> answers() {
        return Collections.unmodifiableList(answers);
    }

    /** Records posted again after an answer that never came or a line not produced. */
    int reposted() {
        return reposted.get();
    }

    private void start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private void sleepUntil(long sinceStartNanos) {
        long wait = startNanos + sinceStartNanos - System.nanoTime();
        if (wait > 0) {
            pause(wait / 1_000_000);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        reading.set(false);
        for (Thread t : threads) {
            t.join(15_000);
        }
    }
}
