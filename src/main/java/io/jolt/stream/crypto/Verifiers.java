package io.jolt.stream.crypto;

import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.Verifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the signature check a service, connector task or command is built with: native-first
 * where libsodium loads (lazysodium's jar carries it for linux x86-64/arm64, macOS and Windows),
 * else BouncyCastle. Both check the same rule. The choice is made and logged once per process,
 * and its one {@link SignatureCheck} shared, so what one consumer proved another need not.
 */
public final class Verifiers {
    /** Set to true, the service uses BouncyCastle alone (to compare, or where the native library misbehaves). */
    public static final String FORCE_BOUNCYCASTLE = "jolt.verifier.bouncycastle";

    private static final Logger LOG = LoggerFactory.getLogger(Verifiers.class);
    private static Choice chosen;

    private Verifiers() {}

    /** What was chosen, and why (for the log line, the bench's header and {@code jolt_verifier_info}). */
    public record Choice(SignatureCheck check, String reason) {
        public Verifier verifier() {
            return check.verifier();
        }
    }

    /** The fastest check that loads here, chosen on the first call; later calls return the first choice. */
    public static synchronized Choice fastest() {
        if (chosen == null) {
            chosen = choose();
            LOG.info("signatures: {} verifier ({})", chosen.verifier().name(), chosen.reason());
        }
        return chosen;
    }

    private static Choice choose() {
        if (Boolean.getBoolean(FORCE_BOUNCYCASTLE)) {
            return new Choice(SignatureCheck.DEFINITION, "-D" + FORCE_BOUNCYCASTLE + "=true");
        }
        try {
            return new Choice(new SignatureCheck(nativeFirst()), "libsodium 1.0.18 decides acceptance, BouncyCastle every refusal");
        } catch (LinkageError | RuntimeException e) {
            return new Choice(SignatureCheck.DEFINITION, "libsodium did not load here: " + e);
        }
    }

    /**
     * The native-first verifier.
     *
     * @throws LinkageError or a RuntimeException when libsodium cannot be loaded or initialised here
     */
    public static NativeFirstVerifier nativeFirst() {
        return new NativeFirstVerifier();
    }
}
