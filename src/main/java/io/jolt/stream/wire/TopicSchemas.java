package io.jolt.stream.wire;

import io.jolt.stream.avro.ArchiveLoss;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.avro.AuthorityRecord;
import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.ConflictAggregate;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.avro.Schema;

/** The value schema of every topic (the classes generated from {@code schemas/}), under its {@code <topic>-value} subject. */
public final class TopicSchemas {
    private TopicSchemas() {}

    /** Subject → schema, in a fixed order: the in-memory registry gives ids in this order. */
    public static Map<String, Schema> bySubject() {
        Map<String, Schema> out = new LinkedHashMap<>();
        out.put(Topics.AUTHORITY + "-value", AuthorityRecord.getClassSchema());
        out.put(Topics.ENTRIES + "-value", DeviceWriterEntry.getClassSchema());
        out.put(Topics.STATE + "-value", StateChange.getClassSchema());
        out.put(Topics.CONFLICTS + "-value", ConflictEvent.getClassSchema());
        out.put(Topics.REJECTED + "-value", RejectedRecord.getClassSchema());
        out.put(Topics.ARCHIVE + "-value", ArchiveRecord.getClassSchema());
        out.put(Topics.COMPACTIONS + "-value", Compaction.getClassSchema());
        out.put(Topics.ARCHIVE_LOSSES + "-value", ArchiveLoss.getClassSchema());
        out.put(Topics.ANALYTICS + "-value", ConflictAggregate.getClassSchema());
        return out;
    }

    /** The embedded registry, seeded with every topic's schema: the default when no registry is configured. */
    public static InMemorySchemaRegistry seededRegistry() {
        return InMemorySchemaRegistry.seeded(bySubject());
    }
}
