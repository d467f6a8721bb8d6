/**
 * The protocol core, pure: bytes in, values out. Codec, identifiers, signatures behind the
 * {@code Verifier} seam, authority, device logs, merge, levels, forgetting: every protocol rule
 * lives here. It uses nothing of the project but itself, and no I/O (ProtocolPurityTest).
 */
package io.jolt.stream.protocol;
