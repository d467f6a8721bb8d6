package io.jolt.stream.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Remembering verified signatures spares work and never changes an answer. */
class VerifiedOnceTest {
    private final TestIdentity alice = TestIdentity.named("memo");
    private final TestIdentity.Device device = alice.device("dev_a");
    private final PublicKey key = PublicKey.parse(device.key().publicKeyBytes()).orElseThrow();
    private final PublicKey otherKey = PublicKey.parse(alice.device("dev_b").key().publicKeyBytes()).orElseThrow();

    @Test
    void aRememberedSignatureDoesNotVouchForAnotherSignatureKeyOrBody() {
        Entry entry = device.set("/profile/name", "Alice");
        assertThat(entry.signatureVerifies(key)).isTrue();
        assertThat(entry.signatureVerifies(key)).as("again, from memory").isTrue();

        byte[] flipped = entry.signature();
        flipped[5] ^= 1;
        assertThat(Entry.decode(entry.bodyBytes(), flipped).signatureVerifies(key)).as("another signature on the same body").isFalse();
        assertThat(entry.signatureVerifies(otherKey)).as("the same signature under another key").isFalse();

        Entry next = device.set("/profile/name", "Bob");
        assertThat(Entry.decode(next.bodyBytes(), entry.signature()).signatureVerifies(key)).as("the signature on another body").isFalse();
    }

    @Test
    void aFailureIsNeverRememberedAsASuccess() {
        Entry entry = device.set("/profile/name", "Carol");
        assertThat(entry.signatureVerifies(otherKey)).isFalse();
        assertThat(entry.signatureVerifies(otherKey)).isFalse();
        assertThat(entry.signatureVerifies(key)).isTrue();
    }

    @Test
    void keysAreParsedOnceWithTheSameVerdict() {
        byte[] raw = device.key().publicKeyBytes();
        assertThat(PublicKey.parse(raw)).contains(key);
        byte[] smallOrder = new byte[32]; // the identity point: not a usable key
        smallOrder[0] = 1;
        assertThat(PublicKey.parse(smallOrder)).isEmpty();
        assertThat(PublicKey.parse(smallOrder)).as("from memory").isEmpty();
    }
}
