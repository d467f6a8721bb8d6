package io.jolt.stream.protocol;

import java.util.Objects;

/**
 * Which {@link Verifier} this process checks signatures with: BouncyCastle's, the definition,
 * until the service's start-up installs a faster one with the same rule. Installing forgets the
 * keys and signatures {@link VerifiedOnce} remembers, so that each verifier answers for itself (the
 * differential tests switch between them; a service switches once, before its first record).
 */
public final class Signatures {
    private static volatile Verifier current = BouncyCastleVerifier.INSTANCE;

    private Signatures() {}

    public static Verifier verifier() {
        return current;
    }

    public static void use(Verifier verifier) {
        current = Objects.requireNonNull(verifier);
        VerifiedOnce.forget();
    }
}
