/**
 * Delta sync: request and response codecs, the responder over a history, and the requesters
 * ({@code jolt sync}'s and the connector's). Uses only the protocol core.
 */
package io.jolt.stream.protocol.sync;
