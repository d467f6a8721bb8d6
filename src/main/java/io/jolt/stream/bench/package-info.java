/**
 * Measurements: {@code jolt bench}, {@code jolt soak} and {@code jolt archive bench}, their feeds,
 * samples and results, and what they are compared with: the raw verify rate and the framework
 * floor (the smallest exactly-once Kafka Streams application, run with the service's
 * configuration). Uses the local stack.
 */
package io.jolt.stream.bench;
