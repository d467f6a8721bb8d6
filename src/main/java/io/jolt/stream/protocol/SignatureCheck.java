package io.jolt.stream.protocol;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * PROTOCOL §2's signature check by one {@link Verifier}, remembering the (key, body hash,
 * signature) triples it proved. Whoever verifies is handed one: the service builds it from the
 * verifier it chose at start-up; {@link #DEFINITION} is BouncyCastle alone. Remembering changes no
 * outcome (a verdict is a pure function of the triple); it spares an identity's re-evaluation the
 * 60–100 µs equation for every record it reads again. A body is named by its BLAKE3 hash, so a
 * remembered triple cannot vouch for another body. Only successes are remembered: a failure is
 * never cached into a success, and bad records are rare enough to check again. Each check
 * remembers for itself, so two verifiers never answer for each other. Safe to share between
 * stream threads.
 */
public final class SignatureCheck {
    /** The definition: BouncyCastle's verify, nothing in front of it. */
    public static final SignatureCheck DEFINITION = new SignatureCheck(BouncyCastleVerifier.INSTANCE);

    /**
     * Verified triples, direct-mapped by the body hash (BLAKE3 output, uniform already): a slot
     * holds the whole 128-byte triple and is compared in full, so a slot can only ever vouch for
     * the very triple that verified. A collision evicts. Costs a 128-byte copy per first verify.
     */
    private static final int SLOTS = 1 << 17;
    /** Signature equations computed by every check of this process, remembered answers not counted. */
    private static final LongAdder COMPUTED = new LongAdder();

    private final Verifier verifier;
    private final AtomicReferenceArray<byte[]> verified = new AtomicReferenceArray<>(SLOTS);

    public SignatureCheck(Verifier verifier) {
        this.verifier = Objects.requireNonNull(verifier);
    }

    public Verifier verifier() {
        return verifier;
    }

    boolean verifies(Signed signed, PublicKey key) {
        byte[] triple = triple(key, signed);
        int slot = slot(triple);
        if (Arrays.equals(verified.get(slot), triple)) {
            return true;
        }
        COMPUTED.increment();
        boolean ok = verifier.verify(key, signed.bodyView(), signed.signatureView());
        if (ok) {
            verified.set(slot, triple);
        }
        return ok;
    }

    /**
     * How many signature equations this process has computed so far. The bench multiplies it by
     * the raw verify cost to say how much of the CPU went to crypto.
     */
    public static long computed() {
        return COMPUTED.sum();
    }

    private static byte[] triple(PublicKey key, Signed signed) {
        byte[] triple = new byte[32 + 32 + Signed.SIGNATURE_LENGTH];
        System.arraycopy(key.encoded(), 0, triple, 0, 32);
        System.arraycopy(signed.hash().bytes(), 0, triple, 32, 32);
        System.arraycopy(signed.signatureView(), 0, triple, 64, Signed.SIGNATURE_LENGTH);
        return triple;
    }

    /** The first bytes of the body hash, which sit at 32..34 of the triple. */
    private static int slot(byte[] triple) {
        return (((triple[32] & 0xff) << 16) | ((triple[33] & 0xff) << 8) | (triple[34] & 0xff)) & (SLOTS - 1);
    }

    @Override
    public String toString() {
        return verifier.name();
    }
}
