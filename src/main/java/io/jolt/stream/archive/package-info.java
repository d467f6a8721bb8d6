/**
 * The bolt on Kafka: the archive's own producer behind the processor's {@code Bolt} port, named
 * losses and degraded durability. It writes the archive and never reads it.
 */
package io.jolt.stream.archive;
