/**
 * Conflict analytics without Kafka: the facts a record is counted as, windows, counts and their
 * exact merge across instances, the export's rows. Uses only the protocol core.
 */
package io.jolt.stream.analytics;
