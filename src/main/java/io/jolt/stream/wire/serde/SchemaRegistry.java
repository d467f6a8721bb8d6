package io.jolt.stream.wire.serde;

import org.apache.avro.Schema;

/**
 * The two operations of a Confluent-compatible schema registry the serdes need: register a
 * schema under a subject (idempotent: the same schema gets the same id), and find a schema by id.
 */
public interface SchemaRegistry {
    int register(String subject, Schema schema);

    /** @throws UnknownSchemaException when no schema has this id */
    Schema schemaById(int id);

    final class UnknownSchemaException extends RuntimeException {
        public UnknownSchemaException(int id) {
            super("no schema with id " + id + " in the registry");
        }
    }
}
