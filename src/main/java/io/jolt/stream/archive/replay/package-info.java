/**
 * Reading the archive back, read-only ({@code jolt replay}): each operation once, by dot, and the
 * archive's JSON answers. It cannot write, and no live code depends on it (BoltFirewallTest).
 */
package io.jolt.stream.archive.replay;
