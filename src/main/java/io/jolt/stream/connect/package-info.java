/**
 * The Kafka Connect source connector that follows other providers by delta sync. Uses the
 * protocol core, the wire's encoder and registry client, and the verifiers; nothing of the
 * service (ConnectorBoundaryTest).
 */
package io.jolt.stream.connect;
