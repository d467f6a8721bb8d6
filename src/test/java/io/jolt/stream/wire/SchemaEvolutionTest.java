package io.jolt.stream.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.ConflictEvent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.junit.jupiter.api.Test;

/**
 * Topics' schemas evolve BACKWARD, as the registry checks them: today's schema reads every
 * record a released version wrote. Released versions are kept in {@code released-schemas/}.
 */
class SchemaEvolutionTest {
    @Test
    void conflictEventVersion3ReadsVersion1() throws IOException {
        assertReads(released("ConflictEvent-1.avsc"));
    }

    @Test
    void conflictEventVersion3ReadsVersion2() throws IOException {
        assertReads(released("ConflictEvent-2.avsc"));
    }

    private static void assertReads(Schema written) {
        SchemaCompatibility.SchemaPairCompatibility result = SchemaCompatibility.checkReaderWriterCompatibility(ConflictEvent.getClassSchema(), written);
        assertThat(result.getType()).as(result.getDescription()).isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
    }

    /** A released schema, parsed with the shared named types it refers to (Hash32, HeadRef, ...). */
    private static Schema released(String name) throws IOException {
        Schema.Parser parser = new Schema.Parser();
        parser.parse(Path.of("schemas", "common.avsc").toFile());
        parser.parse(Path.of("schemas", "StateChange.avsc").toFile());
        try (InputStream in = SchemaEvolutionTest.class.getResourceAsStream("/released-schemas/" + name)) {
            return parser.parse(in);
        }
    }
}
