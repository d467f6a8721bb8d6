package io.jolt.stream.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.RejectionReason;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.testing.ForkedService;
import io.jolt.stream.testing.InputLog;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OutputAudit;
import io.jolt.stream.testing.OutputAudit.ExpectedLosses;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicGuard;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code POST /v1/records} under a crash: a client posts the workload batch by batch while the
 * service is killed with SIGKILL, lines it accepted still unprocessed (counted from its committed
 * offsets at the kill). Every line the service answered "accepted" (with a topic,
 * partition and offset) is at that offset in the input topic, byte for byte; the batch whose
 * answer never came is posted again to the restarted service (a client's retry), and the state
 * ends as the core's merge of everything.
 */
@ExtendWith(RealKafka.class)
class HttpIngestCrashIT {
    static final String APPLICATION = "jolt-it-http-ingest";
    static final ObjectMapper JSON = new ObjectMapper();
    static final int BATCH = 40;

    /** A line the service accepted, and where it said the line went. */
    record Accepted(Object record, String topic, int partition, long offset) {}

    @Test
    void everyLineAnsweredAcceptedSurvivesAKillOfTheService(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        try (var admin = broker.admin()) {
            TopicGuard.ensure(admin, Topics.load(4, null));
        }
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        List<Object> records = FaultScenario.generate(200, 1, 17).records();
        ForkedService.Settings settings = ForkedService.settings(broker.bootstrapServers(), APPLICATION,
                StreamHarness.tempStateDir("http-ingest"), 4).with(Map.of("session.timeout.ms", "6000"));

        ForkedService service = ForkedService.start("http-ingest", settings).awaitRunning(Duration.ofSeconds(120));
        List<Accepted> accepted = new ArrayList<>();
        Set<Object> refused = new HashSet<>();
        AtomicInteger answered = new AtomicInteger();
        Thread killer = new Thread(() -> { // strikes while the client posts on: a batch is in flight
            try {
                while (answered.get() < records.size() / 3) {
                    Thread.sleep(5);
                }
                service.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        killer.start();
        int posted = 0;
        while (posted < records.size()) {
            List<Object> batch = records.subList(posted, Math.min(records.size(), posted + BATCH));
            try {
                accepted.addAll(post(service, batch, refused));
            } catch (IOException e) {
                break; // killed while this batch was in flight: its outcome is unknown, it is posted again below
            }
            posted += batch.size();
            answered.set(posted);
        }
        killer.join();
        // The service is dead: its committed offsets are those of the kill.
        Map<TopicPartition, Long> committed = harness.committedOffsets(APPLICATION);
        long unprocessed = accepted.stream()
                .filter(a -> a.offset() >= committed.getOrDefault(new TopicPartition(a.topic(), a.partition()), 0L)).count();
        System.out.printf("[http ingest] killed after %,d of %,d lines were answered accepted, %,d of them not yet processed%n",
                accepted.size(), records.size(), unprocessed);
        assertThat(accepted).as("killed mid-ingest").isNotEmpty().hasSizeLessThan(records.size());
        assertThat(unprocessed).as("killed with accepted records in flight").isPositive();

        Map<String, byte[]> atOffsets = InputLog.read(broker.bootstrapServers()).stream()
                .collect(Collectors.toMap(InputLog.Stored::at, InputLog.Stored::value));
        for (Accepted a : accepted) {
            byte[] expected = VectorRecords.ofRecords(List.of(a.record()), registry).get(0).value();
            assertThat(atOffsets.get(InputLog.Stored.at(a.topic(), a.partition(), a.offset()))).as("accepted line at %s-%d@%d", a.topic(), a.partition(),
                    a.offset()).isEqualTo(expected);
        }

        ForkedService restarted = ForkedService.start("http-ingest-restarted", settings).awaitRunning(Duration.ofSeconds(120));
        for (int from = posted; from < records.size(); from += BATCH) {
            post(restarted, records.subList(from, Math.min(records.size(), from + BATCH)), refused);
        }
        harness.awaitProcessed(APPLICATION, Duration.ofSeconds(120));
        restarted.stop();
        // What the door refused never reached the service: its verdict was the answer to the client, and the core's too.
        Set<Hash> invalid = OutputAudit.coreMerge(records).stream().flatMap(m -> m.rejected().stream())
                .filter(row -> row.reason() == RejectionReason.INVALID_ENTRY).map(Rejection::entryHash).collect(Collectors.toSet());
        assertThat(refused).as("refused at the door: only entries the core rejects as invalid_entry")
                .allMatch(r -> r instanceof Entry e && invalid.contains(e.hash()));
        List<Object> admitted = records.stream().filter(r -> !refused.contains(r)).toList();
        OutputAudit audit = OutputAudit.of(harness, registry, admitted).assertClean(ExpectedLosses.none(
                "the commit waits for the bolt (BoltBeforeCommit): a kill cuts off only archive writes whose input is not yet "
                + "committed, and that input is processed again (an archive repeat, not a loss)"));
        System.out.println("[http ingest] the merge's verdicts, each reported: " + audit.verdicts());
        System.out.println("[http ingest] " + audit.row("service kill -9 during POST /v1/records (batch in flight re-posted)",
                String.format("%,d", unprocessed)));
    }

    /** Posts the batch; returns the lines accepted and adds those refused at the door to {@code refused}. */
    private static List<Accepted> post(ForkedService service, List<Object> batch, Set<Object> refused) throws IOException, InterruptedException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Object r : batch) {
            body.writeBytes((r instanceof AuthorityRecord a ? RecordJson.write(a) : RecordJson.write((Entry) r)).getBytes(StandardCharsets.UTF_8));
            body.write('\n');
        }
        var response = service.post("/v1/records", body.toByteArray());
        assertThat(response.statusCode()).as(response.body()).isIn(200, 207);
        List<Accepted> out = new ArrayList<>();
        for (JsonNode line : JSON.readTree(response.body()).get("results")) {
            if (!line.get("accepted").asBoolean()) {
                // The workload's entries with a defect in their body are refused at the door, as documented.
                assertThat(line.get("reason").asText()).as(line.toString()).isEqualTo("invalid_entry");
                refused.add(batch.get(line.get("line").asInt() - 1));
                continue;
            }
            out.add(new Accepted(batch.get(line.get("line").asInt() - 1), line.get("topic").asText(), line.get("partition").asInt(),
                    line.get("offset").asLong()));
        }
        return out;
    }
}
