package io.jolt.stream.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A topic's schema evolves BACKWARD, as the registry checks it, or the topic takes a new version
 * in its name. The v1 schemas carried uint64s as longs; the v2 ones as decimals, which no Avro
 * reader promotes a long to: so every topic that carries a uint64 moved to .v2, and the one that
 * carries none (analytics) kept its name and schema. Released schemas are kept in
 * {@code released-schemas/}.
 */
class SchemaEvolutionTest {
    static Iterable<Map.Entry<String, Schema>> currentSchemas() {
        return TopicSchemas.bySubject().entrySet();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("currentSchemas")
    void aTopicKeepsItsVersionExactlyWhenItsSchemaReadsTheReleasedOne(Map.Entry<String, Schema> subject) throws IOException {
        String topic = subject.getKey().replace("-value", "");
        Schema current = subject.getValue();
        Schema released = releasedV1(current.getName());
        SchemaCompatibilityType readsReleased = SchemaCompatibility.checkReaderWriterCompatibility(current, released).getType();
        if (topic.endsWith(".v1")) {
            assertThat(readsReleased).as("%s kept its name: its schema must read what v1 wrote", topic).isEqualTo(SchemaCompatibilityType.COMPATIBLE);
        } else {
            assertThat(topic).endsWith(".v2");
            assertThat(readsReleased).as("%s moved to v2: its v1 records are not readable", topic).isEqualTo(SchemaCompatibilityType.INCOMPATIBLE);
        }
    }

    /** The schema a v1 topic last carried, parsed with the shared named types it refers to. */
    private static Schema releasedV1(String name) throws IOException {
        Schema.Parser parser = new Schema.Parser();
        for (String shared : new String[] {"common", "DeviceWriterEntry", "StateChange", "ArchiveRecord", "RejectedRecord"}) {
            parse(parser, shared);
        }
        return parser.getTypes().containsKey("io.jolt.stream.avro." + name) ? parser.getTypes().get("io.jolt.stream.avro." + name) : parse(parser, name);
    }

    private static Schema parse(Schema.Parser parser, String name) throws IOException {
        try (InputStream in = SchemaEvolutionTest.class.getResourceAsStream("/released-schemas/v1/" + name + ".avsc")) {
            return parser.parse(in);
        }
    }
}
