package io.jolt.stream.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.crypto.EdgeSignatures.Case;
import io.jolt.stream.crypto.EdgeSignatures.Kind;
import io.jolt.stream.protocol.BouncyCastleVerifier;
import io.jolt.stream.protocol.PublicKey;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.junit.jupiter.api.Test;

/**
 * Native-first accepts exactly what BouncyCastle (the rule's definition) accepts, on every kind
 * of signature and key the line runs through. 100,000 signatures per run by default; a longer run:
 * {@code mvn -B test -Dtest=NativeFirstDifferentialTest -Djolt.differential.signatures=1000000}.
 */
class NativeFirstDifferentialTest {
    static final int SIGNATURES = Integer.getInteger("jolt.differential.signatures", 100_000);
    static final int KEYS = Integer.getInteger("jolt.differential.keys", 10_000);

    /** What the rule (BouncyCastle) says of every signature of a kind. */
    static final Map<Kind, Boolean> RULE = Map.of(Kind.VALID, true, Kind.FLIPPED_R, false, Kind.FLIPPED_S, false, Kind.FLIPPED_MESSAGE, false,
            Kind.S_PLUS_L, false, Kind.RANDOM_R, false, Kind.TORSION_R, true, Kind.SMALL_ORDER_R, true, Kind.IDENTITY_R, true,
            Kind.NON_CANONICAL_R, false);

    final NativeFirstVerifier nativeFirst = Verifiers.nativeFirst();

    @Test
    void theEdgePointsAreWhatTheyClaimToBe() {
        for (EdwardsPoint t : EdgeSignatures.SMALL_ORDER) {
            assertThat(t.times(BigInteger.valueOf(8))).as("8T is the identity").isEqualTo(EdwardsPoint.IDENTITY);
        }
        assertThat(EdgeSignatures.SMALL_ORDER).doesNotHaveDuplicates();
        assertThat(EdgeSignatures.NON_CANONICAL).isNotEmpty().allSatisfy(r -> assertThat(EdwardsPoint.decode(r)).isNull());
    }

    @Test
    void nativeFirstGivesBouncyCastlesVerdictOnEverySignature() {
        Map<Kind, LongAdder> seen = counters();
        Map<Kind, LongAdder> accepted = counters();
        Map<Kind, LongAdder> nativeAlone = counters();
        Kind[] kinds = Kind.values();
        int perSeed = 1000;
        IntStream.range(0, (SIGNATURES + perSeed - 1) / perSeed).parallel().forEach(batch -> {
            EdgeSignatures edges = new EdgeSignatures(20261203L * 1_000_003 + batch);
            for (int i = 0; i < perSeed && (long) batch * perSeed + i < SIGNATURES; i++) {
                Case c = edges.next(kinds[i % kinds.length]);
                PublicKey key = PublicKey.parse(c.publicKey()).orElseThrow();
                boolean rule = BouncyCastleVerifier.INSTANCE.verify(key, c.message(), c.signature());
                seen.get(c.kind()).increment();
                assertThat(nativeFirst.verify(key, c.message(), c.signature())).as("%s %s", c.kind(), HexFormat.of()
                        .formatHex(c.signature())).isEqualTo(rule);
                if (rule) {
                    accepted.get(c.kind()).increment();
                }
                if (nativeFirst.libsodiumAccepts(c.publicKey(), c.message(), c.signature())) {
                    nativeAlone.get(c.kind()).increment();
                }
            }
        });
        for (Kind kind : kinds) {
            assertThat(seen.get(kind).sum()).as(kind + " judged").isGreaterThanOrEqualTo(SIGNATURES / kinds.length);
            assertThat(accepted.get(kind).sum()).as("the rule on every " + kind).isEqualTo(RULE.get(kind) ? seen.get(kind).sum() : 0);
        }
        assertThat(nativeAlone.get(Kind.VALID).sum()).as("libsodium accepts honest signatures itself").isEqualTo(accepted.get(Kind.VALID).sum());
        for (Kind cofactoredOnly : new Kind[] {Kind.TORSION_R, Kind.SMALL_ORDER_R, Kind.IDENTITY_R}) {
            assertThat(nativeAlone.get(cofactoredOnly).sum()).as("libsodium alone refuses " + cofactoredOnly + ": BouncyCastle decides").isZero();
        }
    }

    /**
     * Keys are BouncyCastle's to judge whatever checks signatures ({@link PublicKey#parse} takes no
     * verifier), and must stay so: libsodium 1.0.18's
     * {@code crypto_core_ed25519_is_valid_point} accepts a point with a component of order 2 (it
     * checks only that [L]P has x = 0), which the rule refuses; this test found it.
     */
    @Test
    void aKeyIsUsableExactlyWhenTheRuleSaysSo() {
        Random random = new Random(20261203);
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> torsion = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            byte[] seed = new byte[32];
            random.nextBytes(seed);
            byte[] valid = new byte[32];
            Ed25519.generatePublicKey(seed, 0, valid, 0);
            byte[] noise = new byte[32];
            random.nextBytes(noise);
            keys.add(valid);
            keys.add(noise);
            torsion.add(EdwardsPoint.decode(valid).add(EdgeSignatures.SMALL_ORDER.get(1 + random.nextInt(7))).encode());
        }
        EdgeSignatures.SMALL_ORDER.forEach(t -> torsion.add(t.encode()));
        torsion.addAll(EdgeSignatures.NON_CANONICAL);
        for (byte[] key : keys) {
            assertThat(PublicKey.parse(key).isPresent()).as(HexFormat.of().formatHex(key)).isEqualTo(Ed25519.validatePublicKeyFull(key, 0));
        }
        assertThat(torsion).as("keys with a torsion component, of small order, or non-canonical")
                .allSatisfy(key -> assertThat(PublicKey.parse(key)).isEmpty());
    }

    private static Map<Kind, LongAdder> counters() {
        Map<Kind, LongAdder> out = new EnumMap<>(Kind.class);
        for (Kind k : Kind.values()) {
            out.put(k, new LongAdder());
        }
        return out;
    }
}
