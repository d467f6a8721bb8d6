package io.jolt.stream.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The topics of {@code topology/topics.yaml}: names, partitions, replication and configs. */
public final class Topics {
    public static final String AUTHORITY = "jolt.authority.v2";
    public static final String ENTRIES = "jolt.entries.v2";
    public static final String STATE = "jolt.state.v2";
    public static final String CONFLICTS = "jolt.conflicts.v2";
    public static final String REJECTED = "jolt.rejected.v2";
    public static final String ARCHIVE = "jolt.archive.v2";
    public static final String COMPACTIONS = "jolt.compactions.v2";
    public static final String ARCHIVE_LOSSES = "jolt.archive.losses.v2";
    public static final String ANALYTICS = "jolt.analytics.v1";

    public record Spec(String name, int partitions, short replication, Map<String, String> config) {}

    private Topics() {}

    /** The specs from the classpath copy of topology/topics.yaml, with optional overrides. */
    public static List<Spec> load(Integer partitionsOverride, Short replicationOverride) {
        try (InputStream in = Topics.class.getResourceAsStream("/topology/topics.yaml")) {
            if (in == null) {
                throw new IllegalStateException("topology/topics.yaml is not on the classpath");
            }
            JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(in);
            List<Spec> specs = new ArrayList<>();
            for (JsonNode topic : root.get("topics")) {
                Map<String, String> config = new LinkedHashMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = topic.get("config").fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    config.put(e.getKey(), e.getValue().asText());
                }
                int partitions = partitionsOverride != null ? partitionsOverride : topic.get("partitions").asInt();
                short replication = replicationOverride != null ? replicationOverride : (short) topic.get("replication").asInt();
                specs.add(new Spec(topic.get("name").asText(), partitions, replication, Map.copyOf(config)));
            }
            return List.copyOf(specs);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read topology/topics.yaml", e);
        }
    }
}
