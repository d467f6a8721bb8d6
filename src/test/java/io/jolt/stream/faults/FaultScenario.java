package io.jolt.stream.faults;

import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.SchemaRegistry;
import io.jolt.stream.workload.Workload;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The input of a fault test: the demo's workload (authority, entries, forks, revocations,
 * concurrent writes), shuffled so that entries often arrive before their authority (the
 * re-evaluation path), cut into slices that are produced one by one around the faults, and a
 * few undecodable records per slice (the rejection path).
 */
record FaultScenario(List<Object> records, int slices) {
    static FaultScenario generate(int identities, int slices, long seed) {
        Workload.Generated workload = Workload.generate(new Workload.Shape(identities, 3, 10, seed), n -> { });
        List<Object> records = new ArrayList<>(workload.authority());
        records.addAll(workload.entries());
        Collections.shuffle(records, new Random(seed));
        // Only what the input topics can carry: the workload's entries with JSON-only defects have no Avro form.
        List<Object> carried = VectorRecords.ofRecords(records, TopicSchemas.seededRegistry()).stream().map(VectorRecords::record).toList();
        return new FaultScenario(carried, slices);
    }

    List<Object> slice(int i) {
        int size = (records.size() + slices - 1) / slices;
        return records.subList(Math.min(records.size(), i * size), Math.min(records.size(), (i + 1) * size));
    }

    /** Produces slice {@code i} and two undecodable records after it; returns how many records went in. */
    int produce(StreamHarness harness, SchemaRegistry registry, int i) throws Exception {
        List<ProducerRecord<String, byte[]>> raw = new ArrayList<>();
        VectorRecords.ofRecords(slice(i), registry).forEach(r -> raw.add(new ProducerRecord<>(r.topic(), r.key(), r.value())));
        raw.add(new ProducerRecord<>(Topics.ENTRIES, "poison-" + i, ("not avro " + i).getBytes(StandardCharsets.UTF_8)));
        raw.add(new ProducerRecord<>(Topics.AUTHORITY, "poison-" + i, new byte[] {0, 0, 0, 0, 1, (byte) i}));
        harness.produceRaw(raw);
        return raw.size();
    }

    int poisonRecords() {
        return 2 * slices;
    }
}
