package io.jolt.stream.archive.replay;

import io.jolt.stream.avro.ArchiveKind;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.kafka.AvroRecords;
import io.jolt.stream.kafka.TopicReader;
import io.jolt.stream.kafka.Topics;
import io.jolt.stream.kafka.serde.ConfluentAvroSerde;
import io.jolt.stream.kafka.serde.SchemaRegistry;
import io.jolt.stream.protocol.Entry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A read-only reader of the bolt ({@code jolt.archive.v1}). It has a consumer and nothing else:
 * no producer, no topology, no way to write the input topics or to seed a device's writer state.
 * A replay may be read; it must never be authored from.
 */
public final class ArchiveReplay {
    /** One archived operation and where it sits in the archive. */
    public record Archived(ArchiveKind kind, String identity, Entry entry, int partition, long offset, long timestamp) {}

    private final String bootstrap;
    private final SchemaRegistry registry;
    private long read;

    public ArchiveReplay(String bootstrap, SchemaRegistry registry) {
        this.bootstrap = bootstrap;
        this.registry = registry;
    }

    /**
     * Every archived operation of {@code identity} (all when null) up to the archive's current end,
     * at or below {@code untilOffset} of its partition and {@code untilTimestamp} (each null: no bound).
     */
    /** Archive records read so far (the cost of the replays: one identity's replay reads one partition). */
    public long recordsRead() {
        return read;
    }

    public List<Archived> read(String identity, Long untilOffset, Long untilTimestamp) {
        List<Archived> out = new ArrayList<>();
        ConfluentAvroSerde<ArchiveRecord> serde = new ConfluentAvroSerde<>(registry, ArchiveRecord.getClassSchema());
        Consumer<ConsumerRecord<String, byte[]>> each = r -> {
            read++;
            boolean wanted = (identity == null || identity.equals(r.key()))
                    && (untilOffset == null || r.offset() <= untilOffset) && (untilTimestamp == null || r.timestamp() <= untilTimestamp);
            if (wanted) {
                ArchiveRecord a = serde.deserialize(r.topic(), r.value());
                out.add(new Archived(a.getKind(), a.getIdentity(), AvroRecords.entry(a.getEntry()), r.partition(), r.offset(), r.timestamp()));
            }
        };
        // One identity's operations are all on the partition its key maps to: only that one is read.
        if (identity == null) {
            TopicReader.readToEnd(bootstrap, Topics.ARCHIVE, new StringDeserializer(), new ByteArrayDeserializer(), Duration.ofMinutes(5), each);
        } else {
            TopicReader.readKeyToEnd(bootstrap, Topics.ARCHIVE, identity, new StringDeserializer(), new ByteArrayDeserializer(),
                    Duration.ofMinutes(5), each);
        }
        return out;
    }
}
