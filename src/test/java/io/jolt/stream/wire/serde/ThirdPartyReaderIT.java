package io.jolt.stream.wire.serde;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jolt.stream.processor.ForgettingPolicy;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.ApicurioRegistry;
import io.jolt.stream.testing.Executables;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #28: a reader that is not ours reads every output topic. The service runs against a real
 * broker and a real registry (Apicurio through its Confluent API) and processes every conformance
 * scenario plus records at the uint64 extremes. Then {@code src/test/js/read-topics.js} reads each
 * output topic from the beginning as any Node.js consumer would, with stock clients only (kafkajs,
 * @kafkajs/confluent-schema-registry, LZ4 in plain JavaScript). Every value decodes, it reads as
 * many records as our own reader, no uint64 turns negative, and the extremes arrive exact, as
 * decimal strings.
 *
 * <p>Node.js and the reader's packages come from {@code ./jolt test}; without them this test fails
 * and says so.
 */
@ExtendWith(RealKafka.class)
class ThirdPartyReaderIT {
    static final Path JS = Path.of("src", "test", "js");
    static final Path REPORTS = Path.of("target", "third-party-reader");
    static final String APP = "jolt-it-third-party";

    static final String UINT64_MAX = "18446744073709551615"; // 2^64-1
    static final String TWO_TO_THE_63 = "9223372036854775808";
    static final String TWO_TO_THE_63_PLUS_5 = "9223372036854775813";

    /** Above the entries of any scenario's identity (at most 90), so that only {@link #heldBeyondTheBound()} crosses it. */
    static final int HELD_MAX = 100;

    @Test
    void theReadersOfflineChecksPass() throws Exception {
        Ran checks = run("node-test", List.of(node().toString(), "--test"), Duration.ofMinutes(2));
        assertThat(checks.exit()).as(checks.printed()).isZero();
    }

    @Test
    void aNodeJsConfluentClientDecodesEveryOutputTopicExactly(KafkaBroker broker) throws Exception {
        Path node = node();
        try (ApicurioRegistry apicurio = ApicurioRegistry.start()) {
            HttpSchemaRegistry registry = new HttpSchemaRegistry(apicurio.url(), HttpSchemaRegistry.Options.defaults());
            StreamHarness harness = new StreamHarness(broker);
            harness.resetTopics();
            JoltConfig config = harness.config(APP, StreamHarness.tempStateDir("third-party"), 2)
                    .with(ForgettingPolicy.HELD_MAX, String.valueOf(HELD_MAX));
            try (var service = harness.start(config, registry)) {
                harness.produce(inputs(registry));
                harness.awaitProcessed(APP, Duration.ofSeconds(120));
                service.bolt().flush();
            }

            Map<String, Map<String, List<String>>> uint64 = uint64ByTopic();
            Map<String, Long> javaRead = new LinkedHashMap<>();
            try (TopicReader reader = new TopicReader(broker.bootstrapServers())) {
                uint64.keySet().forEach(t -> javaRead.put(t, reader.readAll(t, new ByteArrayDeserializer(), new ByteArrayDeserializer(), (k, v) -> { })));
            }
            JsonNode read = readTopics(node, broker.bootstrapServers(), apicurio.url(), uint64, javaRead);

            SoftAssertions softly = new SoftAssertions();
            uint64.forEach((topic, fields) -> {
                JsonNode summary = read.path("topics").path(topic);
                softly.assertThat(summary.path("complete").asBoolean()).as("%s read to its end", topic).isTrue();
                softly.assertThat(summary.path("records").asLong()).as("%s: records, as many as our reader reads", topic)
                        .isEqualTo(javaRead.get(topic));
                softly.assertThat(summary.path("failedCount").asLong()).as("%s: values that did not decode: %s", topic, summary.path("failed"))
                        .isZero();
                fields.forEach((field, extremes) -> {
                    JsonNode seen = summary.path("fields").path(field);
                    softly.assertThat(seen.path("min").isNull() || new BigInteger(seen.path("min").asText()).signum() >= 0)
                            .as("%s %s: no uint64 turns negative (least %s)", topic, field, seen.path("min")).isTrue();
                    softly.assertThat(seen.path("missing")).as("%s %s: the extremes %s arrive exact, as decimal strings", topic, field, extremes)
                            .isEmpty();
                });
            });
            softly.assertThat(read.path("lz4Frames").asLong()).as("LZ4 frames decompressed (the bolt writes the archive with LZ4)").isPositive();
            softly.assertAll();
        }
    }

    /**
     * Every output topic, each with its protocol uint64 fields (dotted paths into the value) and
     * the extremes the inputs put in them.
     */
    static Map<String, Map<String, List<String>>> uint64ByTopic() {
        Map<String, Map<String, List<String>>> uint64 = new LinkedHashMap<>();
        uint64.put(Topics.STATE, Map.of("head.device_sequence", List.of()));
        uint64.put(Topics.CONFLICTS, Map.of(
                "device_sequence", List.of(UINT64_MAX), // the equivocation at 2^64-1
                "authority_sequence", List.of(),
                "winner.device_sequence", List.of(),
                "losers.device_sequence", List.of(),
                "winner_head.device_sequence", List.of(),
                "winner_head.created_at", List.of(),
                "loser_heads.device_sequence", List.of(),
                "loser_heads.created_at", List.of(UINT64_MAX))); // appends: /pinned's loser was signed at 2^64-1
        uint64.put(Topics.REJECTED, Map.of("device_sequence", List.of(UINT64_MAX, TWO_TO_THE_63_PLUS_5)));
        uint64.put(Topics.COMPACTIONS, Map.of("device_sequence", List.of(UINT64_MAX)));
        uint64.put(Topics.ARCHIVE, Map.of(
                "device_sequence", List.of(),
                "entry.device_sequence", List.of(),
                "entry.created_at", List.of(TWO_TO_THE_63, TWO_TO_THE_63_PLUS_5, UINT64_MAX))); // appends' eligible entries
        uint64.put(Topics.ARCHIVE_LOSSES, Map.of("device_sequence", List.of()));
        uint64.put(Topics.ANALYTICS, Map.of()); // counts and broker times only
        return uint64;
    }

    /** Every conformance scenario, then the identities that put 2^64-1 and 2^63+5 where no scenario does. */
    static List<VectorRecords> inputs(SchemaRegistry registry) {
        List<VectorRecords> inputs = new ArrayList<>();
        Vectors.kinds().forEach(kind -> inputs.addAll(VectorRecords.of(kind, registry)));
        inputs.addAll(VectorRecords.ofRecords(atTheExtremes(), registry));
        inputs.addAll(VectorRecords.ofRecords(heldBeyondTheBound(), registry));
        return inputs;
    }

    /**
     * dev_a signs two entries at sequence 2^64-1 past a gap: both pending (rejected), and an
     * equivocation (conflicts). dev_x, never authorized, signs one at 2^63+5 (rejected).
     */
    static List<Object> atTheExtremes() {
        TestIdentity alice = TestIdentity.named("third-party-reader");
        List<Object> records = new ArrayList<>(List.of(alice.authorize("dev_a")));
        Entry genesis = alice.device("dev_a").set("/name", "alice");
        records.add(genesis);
        records.add(alice.deviceAt("dev_a", Long.parseUnsignedLong(UINT64_MAX), genesis.hash()).set("/far", "one"));
        records.add(alice.deviceAt("dev_a", Long.parseUnsignedLong(UINT64_MAX), genesis.hash()).set("/far", "two"));
        records.add(alice.deviceAt("dev_x", Long.parseUnsignedLong(TWO_TO_THE_63_PLUS_5), genesis.hash()).set("/x", "unknown"));
        return records;
    }

    /**
     * dev_b, never authorized, signs an entry at 2^64-1 (its previous hash is any: nothing links
     * it to a root) and then sequences 0 to 99: the 101st held entry crosses the bound, and the
     * greatest sequences are dropped first (compactions).
     */
    static List<Object> heldBeyondTheBound() {
        TestIdentity bob = TestIdentity.named("third-party-reader-held");
        List<Object> records = new ArrayList<>(List.of(bob.authorize("dev_a")));
        records.add(bob.deviceAt("dev_b", Long.parseUnsignedLong(UINT64_MAX), Hash.blake3(new byte[0])).set("/far", "held"));
        TestIdentity.Device b = bob.device("dev_b");
        for (int i = 0; i < HELD_MAX; i++) {
            records.add(b.set("/notes/" + i, "note " + i));
        }
        return records;
    }

    /** read-topics.js over the topics, told the records our reader read and the fields to report; its summary (stdout) as JSON. */
    static JsonNode readTopics(Path node, String bootstrap, String registryUrl, Map<String, Map<String, List<String>>> uint64,
            Map<String, Long> records) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode spec = json.createObjectNode();
        spec.putArray("brokers").add(bootstrap);
        spec.put("registry", registryUrl);
        spec.put("timeoutMs", Duration.ofMinutes(2).toMillis());
        ObjectNode topics = spec.putObject("topics");
        uint64.forEach((topic, fields) -> {
            ObjectNode t = topics.putObject(topic);
            t.put("records", records.get(topic));
            ObjectNode reported = t.putObject("fields");
            fields.forEach((field, extremes) -> extremes.forEach(reported.putArray(field)::add));
        });
        Path specFile = Files.createDirectories(REPORTS).resolve("spec.json");
        json.writerWithDefaultPrettyPrinter().writeValue(specFile.toFile(), spec);
        Ran reader = run("read-topics", List.of(node.toString(), "read-topics.js", "--spec", specFile.toAbsolutePath().toString()),
                Duration.ofMinutes(4));
        assertThat(reader.exit()).as("read-topics.js ran (0: all as expected, 1: not); %s", reader.printed()).isIn(0, 1);
        return json.readTree(reader.stdout());
    }

    record Ran(int exit, String stdout, String printed) {}

    /** A command run in src/test/js; its stdout and stderr kept in target/third-party-reader/NAME.out and NAME.log. */
    static Ran run(String name, List<String> command, Duration limit) throws Exception {
        Path out = Files.createDirectories(REPORTS).resolve(name + ".out");
        Path log = REPORTS.resolve(name + ".log");
        Process process = new ProcessBuilder(command).directory(JS.toFile()).redirectOutput(out.toFile()).redirectError(log.toFile()).start();
        if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(command + " did not end within " + limit + "; see " + log.toAbsolutePath());
        }
        String stdout = Files.readString(out);
        return new Ran(process.exitValue(), stdout, stdout + Files.readString(log));
    }

    /** Node.js, and the reader's packages beside the script: {@code ./jolt test} installs both. */
    static Path node() {
        Path node = Executables.require("jolt.node", List.of("node", "nodejs"),
                "run ./jolt test, which installs Node.js and npm where it can and then the reader's packages (npm ci in src/test/js)");
        if (!Files.isRegularFile(JS.resolve("node_modules").resolve(".package-lock.json"))) {
            throw new IllegalStateException(JS.resolve("node_modules") + " is not installed: run ./jolt test, which runs npm ci there");
        }
        return node;
    }
}
