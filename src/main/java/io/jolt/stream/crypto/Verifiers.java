package io.jolt.stream.crypto;

import io.jolt.stream.protocol.BouncyCastleVerifier;
import io.jolt.stream.protocol.Signatures;
import io.jolt.stream.protocol.Verifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the process's signature verifier at start-up: native-first where libsodium loads
 * (lazysodium's jar carries it for linux x86-64/arm64, macOS and Windows), else BouncyCastle.
 * Both check the same rule; the choice and its reason are logged once.
 */
public final class Verifiers {
    /** Set to true, the service uses BouncyCastle alone (to compare, or where the native library misbehaves). */
    public static final String FORCE_BOUNCYCASTLE = "jolt.verifier.bouncycastle";

    private static final Logger LOG = LoggerFactory.getLogger(Verifiers.class);
    private static Choice installed;

    private Verifiers() {}

    /** What was chosen, and why (for the log line, the bench's header and {@code jolt_verifier_info}). */
    public record Choice(Verifier verifier, String reason) {}

    /** Installs the fastest verifier that loads, once per process; later calls return the first choice. */
    public static synchronized Choice installDefault() {
        if (installed == null) {
            installed = choose();
            Signatures.use(installed.verifier());
            LOG.info("signatures: {} verifier ({})", installed.verifier().name(), installed.reason());
        }
        return installed;
    }

    private static Choice choose() {
        if (Boolean.getBoolean(FORCE_BOUNCYCASTLE)) {
            return new Choice(BouncyCastleVerifier.INSTANCE, "-D" + FORCE_BOUNCYCASTLE + "=true");
        }
        try {
            return new Choice(nativeFirst(), "libsodium 1.0.18 decides acceptance, BouncyCastle every refusal");
        } catch (LinkageError | RuntimeException e) {
            return new Choice(BouncyCastleVerifier.INSTANCE, "libsodium did not load here: " + e);
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
