/**
 * The native-first Ed25519 verifier: libsodium through JNA decides acceptance, BouncyCastle every
 * refusal. Implements the core's {@code Verifier}; uses nothing else of the project.
 */
package io.jolt.stream.crypto;
