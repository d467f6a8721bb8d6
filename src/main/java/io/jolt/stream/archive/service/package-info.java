/**
 * {@code jolt archive serve}: an index of the archive of its own, its queries, the reads by offset
 * and its HTTP API. Read-only by construction: no producer, no live store (BoltFirewallTest).
 */
package io.jolt.stream.archive.service;
