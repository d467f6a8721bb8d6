package io.jolt.stream.kafka.serde;

import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.avro.AuthorityRecord;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.kafka.Topics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * The embedded default registry: ids in one JVM, seeded with the schemas of every topic (the
 * classes generated from {@code schemas/}) so that ids are stable for a given build.
 */
public final class InMemorySchemaRegistry implements SchemaRegistry {
    private final List<Schema> byId = new ArrayList<>();
    private final Map<Schema, Integer> ids = new HashMap<>();
    private final Map<String, List<Integer>> subjects = new HashMap<>();

    public static InMemorySchemaRegistry seeded() {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        registry.register(Topics.AUTHORITY + "-value", AuthorityRecord.getClassSchema());
        registry.register(Topics.ENTRIES + "-value", DeviceWriterEntry.getClassSchema());
        registry.register(Topics.STATE + "-value", StateChange.getClassSchema());
        registry.register(Topics.CONFLICTS + "-value", ConflictEvent.getClassSchema());
        registry.register(Topics.REJECTED + "-value", RejectedRecord.getClassSchema());
        registry.register(Topics.ARCHIVE + "-value", ArchiveRecord.getClassSchema());
        registry.register(Topics.COMPACTIONS + "-value", io.jolt.stream.avro.Compaction.getClassSchema());
        return registry;
    }

    @Override
    public synchronized int register(String subject, Schema schema) {
        Integer id = ids.get(schema);
        if (id == null) {
            byId.add(schema);
            id = byId.size();
            ids.put(schema, id);
        }
        List<Integer> versions = subjects.computeIfAbsent(subject, s -> new ArrayList<>());
        if (!versions.contains(id)) {
            versions.add(id);
        }
        return id;
    }

    @Override
    public synchronized Schema schemaById(int id) {
        if (id < 1 || id > byId.size()) {
            throw new UnknownSchemaException(id);
        }
        return byId.get(id - 1);
    }
}
