package io.jolt.stream.archive.replay;

import io.jolt.stream.avro.ArchiveKind;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.wire.AvroRecords;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A read-only reader of the bolt ({@code jolt.archive.v2}). It has a consumer and nothing else:
 * no producer, no topology, no way to write the input topics or to seed a device's writer state.
 * A replay may be read; it must never be authored from.
 */
public final class ArchiveReplay {
    /** One archived operation and where it sits in the archive. */
    public record Archived(ArchiveKind kind, String identity, Entry entry, int partition, long offset, long timestamp) {}

    private final String bootstrap;
    private final String topic;
    private final SchemaRegistry registry;
    private long read;

    /** A reader of jolt.archive.v2. */
    public ArchiveReplay(String bootstrap, SchemaRegistry registry) {
        this(bootstrap, Topics.ARCHIVE, registry);
    }

    /** A reader of an archive topic under another name (a mirror of jolt.archive.v2). */
    public ArchiveReplay(String bootstrap, String topic, SchemaRegistry registry) {
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.registry = registry;
    }

    /** Archive records read so far (the cost of the replays: one identity's replay reads one partition). */
    public long recordsRead() {
        return read;
    }

    /**
     * Every archived operation of {@code identity} (all when null) up to the archive's current end,
     * at or below {@code untilOffset} of its partition and {@code untilTimestamp} (each null: no
     * bound), as written (repeats included: see {@link ArchivedHistory}).
     */
    public List<Archived> read(String identity, Long untilOffset, Long untilTimestamp) {
        return read(identity, untilOffset, untilTimestamp, identity == null);
    }

    private List<Archived> read(String identity, Long untilOffset, Long untilTimestamp, boolean everyPartition) {
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
        // One identity's operations are all on the partition its key maps to: only that one is read,
        // and with a time bound only up to the first record archived after it.
        if (everyPartition) {
            TopicReader.readToEnd(bootstrap, topic, new StringDeserializer(), new ByteArrayDeserializer(), Duration.ofMinutes(5), each);
        } else if (untilTimestamp != null) {
            TopicReader.readKeyUntil(bootstrap, topic, identity, untilTimestamp, new StringDeserializer(), new ByteArrayDeserializer(),
                    Duration.ofMinutes(5), each);
        } else {
            TopicReader.readKeyToEnd(bootstrap, topic, identity, new StringDeserializer(), new ByteArrayDeserializer(),
                    Duration.ofMinutes(5), each);
        }
        return out;
    }

    /**
     * One identity's history (on {@code path} when not null) as of the bounds, each operation
     * once; {@code fullScan} reads every partition, as replays did before they knew the key's.
     */
    public ArchivedHistory history(String identity, String path, Long untilOffset, Long untilTimestamp, boolean fullScan) {
        return ArchivedHistory.of(identity, read(identity, untilOffset, untilTimestamp, fullScan), path);
    }
}
