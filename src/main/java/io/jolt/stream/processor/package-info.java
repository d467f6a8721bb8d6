/**
 * The stream processor: the topology, the identity processor and its rooms (decode, hot path,
 * re-evaluation, forgetting, outputs), the bolt port, the analytics sub-topologies, and the
 * interactive queries over its stores. Uses the protocol core, the wire and the analytics.
 */
package io.jolt.stream.processor;
