/**
 * What crosses Kafka: topic names and specs, Avro schemas and records, the input and output
 * encodings, the topic guard, a topic reader and record ingest. Uses the protocol core and its
 * serdes ({@code wire.serde}); nothing of the processor or the service.
 */
package io.jolt.stream.wire;
