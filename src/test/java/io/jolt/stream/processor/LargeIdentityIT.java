package io.jolt.stream.processor;

import io.jolt.stream.protocol.Uint64;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.StateChange;
import io.jolt.stream.local.StreamThreadsCpu;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.AvroRecords;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An identity with 100,000 entries streams through the hot path: each entry touches only its
 * own keys, so the work (and memory) per record is bounded by the record, not by the identity's
 * history. Re-evaluations, which read a whole identity, happen only for the rare events.
 */
@ExtendWith(RealKafka.class)
class LargeIdentityIT {
    static final int ENTRIES = 100_000;
    /**
     * Costs are measured in this many rounds and the least is kept: on a shared machine noise
     * only ever adds.
     */
    static final int ROUNDS = 5;

    /** A fresh identity: its Authorize (sent and processed first) and {@code count} signed entries. */
    record Fresh(String id, List<ProducerRecord<String, byte[]>> entries) {}

    static Fresh fresh(StreamHarness harness, InMemorySchemaRegistry registry, String name, int count) throws Exception {
        TestIdentity fresh = TestIdentity.named(name);
        var authoritySerde = new ConfluentAvroSerde<io.jolt.stream.avro.AuthorityRecord>(registry, io.jolt.stream.avro.AuthorityRecord.getClassSchema());
        var entrySerde = new ConfluentAvroSerde<io.jolt.stream.avro.DeviceWriterEntry>(registry, io.jolt.stream.avro.DeviceWriterEntry.getClassSchema());
        harness.produceRaw(List.of(new ProducerRecord<>(Topics.AUTHORITY, fresh.id(),
                authoritySerde.serialize(Topics.AUTHORITY, AvroRecords.authority(fresh.authorize("dev_a"))))));
        harness.awaitProcessed("jolt-it-large", Duration.ofSeconds(60));
        TestIdentity.Device device = fresh.device("dev_a");
        List<ProducerRecord<String, byte[]>> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            entries.add(new ProducerRecord<>(Topics.ENTRIES, fresh.id(), entrySerde.serialize(Topics.ENTRIES,
                    AvroRecords.entry(device.set("/profile/" + (i % 50), "value " + i)))));
        }
        return new Fresh(fresh.id(), entries);
    }

    /** Microseconds per sync page (no cursors: the first 256 entries) for the big and the small identity. */
    static double[] measureSyncPages(org.apache.kafka.streams.KafkaStreams streams, String big, String small) {
        IdentityQueries queries = new IdentityQueries(streams, SignatureCheck.DEFINITION);
        double[] out = new double[2];
        String[] ids = {big, small};
        Arrays.fill(out, Double.MAX_VALUE);
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < ids.length; i++) {
                var request = new io.jolt.stream.protocol.sync.SyncRequest(ids[i], 3, 2, List.of(), List.of(), List.of());
                long t0 = System.nanoTime();
                int pages = 20;
                for (int p = 0; p < pages; p++) {
                    var answer = io.jolt.stream.protocol.sync.SyncResponder.answer(queries.syncHistory(ids[i]).orElseThrow(), request,
                            io.jolt.stream.protocol.sync.SyncResponder.Limits.DEFAULT);
                    assertThat(answer.response().deviceLogs().get(0)).hasSize(256);
                }
                out[i] = Math.min(out[i], (System.nanoTime() - t0) / 1e3 / pages);
            }
        }
        return out;
    }

    @Test
    void aHundredThousandEntriesOfOneIdentityAreMergedIncrementally(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        ConfluentAvroSerde<io.jolt.stream.avro.AuthorityRecord> authoritySerde =
                new ConfluentAvroSerde<>(registry, io.jolt.stream.avro.AuthorityRecord.getClassSchema());
        ConfluentAvroSerde<io.jolt.stream.avro.DeviceWriterEntry> entrySerde =
                new ConfluentAvroSerde<>(registry, io.jolt.stream.avro.DeviceWriterEntry.getClassSchema());

        TestIdentity big = TestIdentity.named("big");
        int more = 3000;
        List<ProducerRecord<String, byte[]>> input = new ArrayList<>(ENTRIES + 2);
        input.add(new ProducerRecord<>(Topics.AUTHORITY, big.id(), authoritySerde.serialize(Topics.AUTHORITY, AvroRecords.authority(big.authorize("dev_a")))));
        TestIdentity.Device device = big.device("dev_a");
        Entry last = null;
        for (int i = 0; i < ENTRIES; i++) {
            last = i % 4 == 0 ? device.append("/log/" + (i % 100), "post " + i) : device.set("/profile/" + (i % 50), "value " + i);
            input.add(new ProducerRecord<>(Topics.ENTRIES, big.id(), entrySerde.serialize(Topics.ENTRIES, AvroRecords.entry(last))));
        }

        JoltConfig config = harness.config("jolt-it-large", StreamHarness.tempStateDir("large"), 1);
        long started;
        long processed;
        double[] pageCosts;
        List<Cost> bigCosts = new ArrayList<>();
        List<Cost> freshCosts = new ArrayList<>();
        Map<String, Double> counters = new TreeMap<>();
        try (var service = harness.start(config, registry)) {
            // The Authorize first: entries arriving before it would wait as unknown_device and be
            // admitted by one re-evaluation of the whole identity instead of the hot path.
            harness.produceRaw(input.subList(0, 1));
            harness.awaitProcessed("jolt-it-large", Duration.ofSeconds(60));
            started = System.nanoTime();
            harness.produceRaw(input.subList(1, input.size()));
            harness.awaitProcessed("jolt-it-large", Duration.ofMinutes(5));
            processed = System.nanoTime();
            // Per-entry cost: 3,000 more entries on the 100,000-entry identity versus 3,000 on a
            // fresh one, in rounds that alternate which goes first.
            Fresh fresh = null;
            for (int round = 0; round < ROUNDS; round++) {
                List<ProducerRecord<String, byte[]>> onBig = new ArrayList<>();
                for (int i = 0; i < more; i++) {
                    int n = round * more + i;
                    last = device.set("/profile/" + (n % 50), "more " + n);
                    onBig.add(new ProducerRecord<>(Topics.ENTRIES, big.id(), entrySerde.serialize(Topics.ENTRIES, AvroRecords.entry(last))));
                }
                fresh = fresh(harness, registry, "fresh-" + round, more);
                if (round % 2 == 0) {
                    bigCosts.add(Cost.of(harness, onBig));
                    freshCosts.add(Cost.of(harness, fresh.entries()));
                } else {
                    freshCosts.add(Cost.of(harness, fresh.entries()));
                    bigCosts.add(Cost.of(harness, onBig));
                }
            }
            pageCosts = measureSyncPages(service.streams(), big.id(), fresh.id());
            for (Map.Entry<MetricName, ? extends Metric> m : service.streams().metrics().entrySet()) {
                if (m.getKey().group().equals(ProcessorMetrics.GROUP)) {
                    counters.merge(m.getKey().name(), ((Number) m.getValue().metricValue()).doubleValue(), Double::sum);
                }
            }
        }
        System.out.printf("100,000 entries of one identity: %.1f s end to end, %s%n", (processed - started) / 1e9, counters);
        double freshCost = Cost.leastCpu(freshCosts);
        double bigCost = Cost.leastCpu(bigCosts);
        System.out.printf("per entry, stream threads' CPU (least of %d rounds): %.0f us on a fresh identity, %.0f us on the 100,000-entry identity (ratio fresh/big %.2f)%n",
                ROUNDS, freshCost, bigCost, freshCost / bigCost);
        System.out.printf("  rounds (CPU / wall-clock to committed, us per entry): fresh %s, big %s%n", freshCosts, bigCosts);
        System.out.printf("sync page of 256 entries (least of %d rounds): %.0f us for the 100,000-entry identity, %.0f us for a 3,000-entry identity (ratio %.2f)%n",
                ROUNDS, pageCosts[0], pageCosts[1], pageCosts[0] / pageCosts[1]);
        assertThat(counters.get("hot-path-total")).isEqualTo((double) ENTRIES + 2 * more * ROUNDS);
        assertThat(counters.get("reevaluations-total")).as("only the Authorize records re-evaluate").isEqualTo(1.0 + ROUNDS);

        List<StateChange> state = harness.readAll(Topics.STATE, new ByteArrayDeserializer(),
                new ConfluentAvroSerde<StateChange>(registry, StateChange.getClassSchema())).stream().map(r -> r.value()).toList();
        Map<String, StateChange> latest = new TreeMap<>();
        state.stream().filter(s -> s.getIdentity().equals(big.id())).forEach(s -> latest.put(s.getPath(), s));
        assertThat(latest).hasSize(50);
        assertThat(latest.get("/profile/" + ((more * ROUNDS - 1) % 50)).getHead().getDeviceSequence()).isEqualByComparingTo(Uint64.decimal(last.sequence()));
    }

    /**
     * Microseconds per entry of one batch: the stream threads' CPU, which is the work, and the
     * wall-clock until committed, which for a few thousand entries is mostly the commit interval.
     */
    record Cost(double cpu, double wall) {
        static Cost of(StreamHarness harness, List<ProducerRecord<String, byte[]>> entries) throws Exception {
            long cpu0 = StreamThreadsCpu.nanosSoFar();
            long t0 = System.nanoTime();
            harness.produceRaw(entries);
            harness.awaitProcessed("jolt-it-large", Duration.ofMinutes(2));
            return new Cost((StreamThreadsCpu.nanosSoFar() - cpu0) / 1e3 / entries.size(), (System.nanoTime() - t0) / 1e3 / entries.size());
        }

        static double leastCpu(List<Cost> costs) {
            return costs.stream().mapToDouble(Cost::cpu).min().orElseThrow();
        }

        @Override
        public String toString() {
            return Math.round(cpu) + "/" + Math.round(wall);
        }
    }
}
