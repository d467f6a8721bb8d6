/**
 * The Confluent wire format and the schema registries (the REST client, the in-memory default),
 * and the serde of analytics tallies. Uses Avro, Jackson and the analytics values only.
 */
package io.jolt.stream.wire.serde;
