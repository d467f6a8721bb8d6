package io.jolt.stream.wire;

import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * A vector bundle as topic records: every line the Avro topics can carry (unreadable JSON and
 * JSON-only defects such as unknown fields have no Avro form), serialized in the wire format.
 */
public record VectorRecords(String topic, String key, byte[] value, Object record) {
    public static List<VectorRecords> of(String kind, SchemaRegistry registry) {
        return of(Vectors.lines(kind), registry);
    }

    /** Topic records of protocol values (authority records and entries), in the order given. */
    public static List<VectorRecords> ofRecords(List<?> records, SchemaRegistry registry) {
        List<byte[]> lines = new ArrayList<>();
        for (Object r : records) {
            String line = r instanceof AuthorityRecord a ? RecordJson.write(a) : RecordJson.write((Entry) r);
            lines.add(line.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return of(lines, registry);
    }

    public static List<VectorRecords> of(List<byte[]> lines, SchemaRegistry registry) {
        ConfluentAvroSerde<io.jolt.stream.avro.AuthorityRecord> authority =
                new ConfluentAvroSerde<>(registry, io.jolt.stream.avro.AuthorityRecord.getClassSchema());
        ConfluentAvroSerde<DeviceWriterEntry> entries = new ConfluentAvroSerde<>(registry, DeviceWriterEntry.getClassSchema());
        List<VectorRecords> out = new ArrayList<>();
        for (byte[] line : lines) {
            RecordJson.Line read = RecordJson.read(line);
            if (read instanceof RecordJson.AuthorityLine a && a.record() != null) {
                AuthorityRecord r = a.record();
                out.add(new VectorRecords(Topics.AUTHORITY, a.identity(), authority.serialize(Topics.AUTHORITY, AvroRecords.authority(r)), r));
            } else if (read instanceof RecordJson.EntryLine e && e.input() instanceof EntryInput.Signed s && s.defect() == null) {
                Entry entry = s.entry();
                out.add(new VectorRecords(Topics.ENTRIES, e.identity(), entries.serialize(Topics.ENTRIES, AvroRecords.entry(entry)), entry));
            }
        }
        return out;
    }
}
