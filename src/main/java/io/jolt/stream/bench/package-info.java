/**
 * Measurements: {@code jolt bench}, {@code jolt soak} and {@code jolt archive bench}, their feeds,
 * samples and results, and the raw verify rate they are compared with. Uses the local stack.
 */
package io.jolt.stream.bench;
