package io.jolt.stream.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A signature check remembers what it proved: that spares work and never changes an answer. */
class SignatureCheckTest {
    private final TestIdentity alice = TestIdentity.named("memo");
    private final TestIdentity.Device device = alice.device("dev_a");
    private final PublicKey key = PublicKey.parse(device.key().publicKeyBytes()).orElseThrow();
    private final PublicKey otherKey = PublicKey.parse(alice.device("dev_b").key().publicKeyBytes()).orElseThrow();
    private final CountingVerifier counting = new CountingVerifier(BouncyCastleVerifier.INSTANCE);
    private final SignatureCheck check = new SignatureCheck(counting);

    @Test
    void aVerifiedSignatureIsComputedOnceThenRemembered() {
        Entry entry = device.set("/profile/name", "Alice");
        assertThat(entry.signatureVerifies(key, check)).isTrue();
        assertThat(entry.signatureVerifies(key, check)).as("again, from memory").isTrue();
        assertThat(counting.calls).hasValue(1);
    }

    @Test
    void aRememberedSignatureDoesNotVouchForAnotherSignatureKeyOrBody() {
        Entry entry = device.set("/profile/name", "Alice");
        assertThat(entry.signatureVerifies(key, check)).isTrue();

        byte[] flipped = entry.signature();
        flipped[5] ^= 1;
        assertThat(Entry.decode(entry.bodyBytes(), flipped).signatureVerifies(key, check)).as("another signature on the same body").isFalse();
        assertThat(entry.signatureVerifies(otherKey, check)).as("the same signature under another key").isFalse();

        Entry next = device.set("/profile/name", "Bob");
        assertThat(Entry.decode(next.bodyBytes(), entry.signature()).signatureVerifies(key, check)).as("the signature on another body").isFalse();
    }

    @Test
    void aFailureIsNeverRememberedAsASuccess() {
        Entry entry = device.set("/profile/name", "Carol");
        assertThat(entry.signatureVerifies(otherKey, check)).isFalse();
        assertThat(entry.signatureVerifies(otherKey, check)).isFalse();
        assertThat(entry.signatureVerifies(key, check)).isTrue();
        assertThat(counting.calls).as("failures are computed every time").hasValue(3);
    }

    @Test
    void eachCheckAnswersForItsOwnVerifier() {
        Entry entry = device.set("/profile/name", "Dave");
        assertThat(entry.signatureVerifies(key, SignatureCheck.DEFINITION)).isTrue();
        SignatureCheck refusesAll = new SignatureCheck(new Verifier() {
            @Override
            public boolean verify(PublicKey key, byte[] message, byte[] signature) {
                return false;
            }

            @Override
            public String name() {
                return "refuses-all";
            }
        });
        assertThat(entry.signatureVerifies(key, refusesAll)).as("what the definition proved does not answer for another verifier").isFalse();
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

    private static final class CountingVerifier implements Verifier {
        final AtomicInteger calls = new AtomicInteger();
        private final Verifier inner;

        CountingVerifier(Verifier inner) {
            this.inner = inner;
        }

        @Override
        public boolean verify(PublicKey key, byte[] message, byte[] signature) {
            calls.incrementAndGet();
            return inner.verify(key, message, signature);
        }

        @Override
        public String name() {
            return "counting";
        }
    }
}
