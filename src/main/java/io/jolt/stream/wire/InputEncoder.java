package io.jolt.stream.wire;

import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * An input record as the processor reads it: keyed by identity, the value Avro in the Confluent
 * wire format through the given registry. Every writer of the input topics (the HTTP ingest,
 * {@code jolt sync --ingest}, the Connect source task) encodes with this one class.
 */
public final class InputEncoder {
    private final ConfluentAvroSerde<io.jolt.stream.avro.AuthorityRecord> authority;
    private final ConfluentAvroSerde<DeviceWriterEntry> entries;

    public InputEncoder(SchemaRegistry registry) {
        this.authority = new ConfluentAvroSerde<>(registry, io.jolt.stream.avro.AuthorityRecord.getClassSchema());
        this.entries = new ConfluentAvroSerde<>(registry, DeviceWriterEntry.getClassSchema());
    }

    public ProducerRecord<String, byte[]> authority(AuthorityRecord record) {
        return new ProducerRecord<>(Topics.AUTHORITY, record.body().identity(), authority.serialize(Topics.AUTHORITY, AvroRecords.authority(record)));
    }

    public ProducerRecord<String, byte[]> entry(Entry entry) {
        return new ProducerRecord<>(Topics.ENTRIES, entry.body().identity(), entries.serialize(Topics.ENTRIES, AvroRecords.entry(entry)));
    }
}
