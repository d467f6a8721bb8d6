package io.jolt.stream.processor;

import com.fasterxml.jackson.databind.JsonNode;
import io.jolt.stream.processor.TopologyFixture.IdentityPath;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Head;
import io.jolt.stream.protocol.Resolution;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.SingletonState;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.protocol.json.Bundle;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.wire.VectorConformanceJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The expectation of the Kafka-level tests: the state table the protocol core (or a vector's expected.json) has for a set of records. */
public final class MergedTable {
    private MergedTable() {}

    /** What the core merges from these protocol values. */
    public static Map<IdentityPath, Resolution> of(Object... records) {
        return of(List.of(records));
    }

    public static Map<IdentityPath, Resolution> of(List<?> records) {
        return ofLines(records.stream()
                .map(r -> (r instanceof AuthorityRecord a ? RecordJson.write(a) : RecordJson.write((Entry) r)).getBytes(StandardCharsets.UTF_8))
                .toList());
    }

    /** What the core merges from these §9 JSON lines. */
    public static Map<IdentityPath, Resolution> ofLines(List<byte[]> lines) {
        Bundle bundle = new Bundle();
        lines.forEach(bundle::add);
        Map<IdentityPath, Resolution> out = new TreeMap<>();
        bundle.merge(SignatureCheck.DEFINITION).forEach(state -> {
            for (SingletonState s : state.singletons()) {
                out.put(new IdentityPath(state.identity(), s.path()), Resolution.of(s.path(), s));
            }
        });
        return out;
    }

    /** The singletons of a vector kind's expected.json. */
    public static Map<IdentityPath, Resolution> expected(String kind) throws IOException {
        Map<IdentityPath, Resolution> out = new TreeMap<>();
        for (JsonNode identity : VectorConformanceJson.read(Vectors.expected(kind))) {
            for (JsonNode s : identity.get("singletons")) {
                String path = s.get("path").asText();
                JsonNode h = s.get("head");
                Head head = new Head(h.get("device_id").asText(), h.get("device_sequence").bigIntegerValue().longValue(),
                        Hash.fromHex(h.get("entry_hash").asText()));
                int conflicts = s.get("conflicts").size();
                out.put(new IdentityPath(identity.get("identity").asText(), path), s.get("state").asText().equals("tombstoned")
                        ? new Resolution.Tombstoned(path, head, conflicts)
                        : new Resolution.Present(path, s.get("content_id").asText(), head, conflicts));
            }
        }
        return out;
    }
}
