package io.jolt.stream.wire.serde;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.avro.Schema;

/**
 * The embedded default registry: ids in one JVM, seeded with the schemas of every topic (see
 * {@code io.jolt.stream.wire.TopicSchemas}) so that ids are stable for a given build.
 */
public final class InMemorySchemaRegistry implements SchemaRegistry {
    private final List<Schema> byId = new ArrayList<>();
    private final Map<Schema, Integer> ids = new HashMap<>();
    private final Map<String, List<Integer>> subjects = new HashMap<>();

    /** A registry holding these schemas, registered in this order (so that their ids are stable for a build). */
    public static InMemorySchemaRegistry seeded(Map<String, Schema> schemasBySubject) {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        schemasBySubject.forEach(registry::register);
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

    /**
     * Every subject, by name, with the ids of its versions (version 1 first): a copy taken at
     * once, so that a reader outside (the service's read-only registry routes) sees one state.
     */
    public synchronized SortedMap<String, List<Integer>> subjectVersions() {
        SortedMap<String, List<Integer>> copy = new TreeMap<>();
        subjects.forEach((subject, ids) -> copy.put(subject, List.copyOf(ids)));
        return copy;
    }
}
