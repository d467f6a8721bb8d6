package io.jolt.stream.bench;

import io.jolt.stream.crypto.NativeFirstVerifier;
import io.jolt.stream.crypto.Verifiers;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.DeviceAuthority;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.EntryRules;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.PublicKey;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.SingletonMerge;
import io.jolt.stream.protocol.SingletonState;
import io.jolt.stream.protocol.TestIdentity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-entry verification path against the crypto limit measured in the same run:
 * BouncyCastle's raw verify (the rule's definition), libsodium's raw verify, and the whole path
 * with either verifier.
 *
 * <pre>mvn -q test-compile exec:exec@jmh -Djmh.args="VerificationBenchmark"</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class VerificationBenchmark {
    byte[] bodyBytes;
    byte[] signature;
    byte[] devicePublicKey;
    Ed25519.PublicPoint decodedKey;
    DeviceAuthority device;
    String identity;
    List<Entry> pathCandidates;
    List<AuthorityRecord> authority;
    List<EntryInput> history;

    @Setup
    public void setUp() {
        TestIdentity alice = TestIdentity.named("bench");
        AuthorityRecord authorize = alice.authorize("dev_a");
        AuthorityRecord authorizeB = alice.authorize("dev_b");
        TestIdentity.Device a = alice.device("dev_a");
        TestIdentity.Device b = alice.device("dev_b");
        Entry previous = a.set("/profile/display-name", "warm-up");
        // A typical entry: singleton SetPath observing one head, ~250 body bytes.
        Entry entry = a.set("/profile/display-name", "Alice in the benchmark", previous.hash());
        bodyBytes = entry.bodyBytes();
        signature = entry.signature();
        identity = alice.id();
        devicePublicKey = alice.device("dev_a").key().publicKeyBytes();
        decodedKey = Ed25519.validatePublicKeyFullExport(devicePublicKey, 0);
        device = new DeviceAuthority("dev_a", PublicKey.parse(devicePublicKey).orElseThrow(), DeviceAuthority.Status.ACTIVE, null);

        pathCandidates = new ArrayList<>(List.of(previous, entry));
        history = new ArrayList<>(List.of(new EntryInput.Signed(previous), new EntryInput.Signed(entry)));
        for (int i = 0; i < 100; i++) {
            Entry e = (i % 2 == 0 ? a : b).set("/p/" + (i % 10), "v" + i);
            history.add(new EntryInput.Signed(e));
        }
        authority = List.of(authorize, authorizeB);
    }

    /**
     * Twice as many distinct signed entries as the process remembers verified signatures, cycled
     * through: every verify is a first one. Built only for the benchmark that uses it.
     */
    @State(Scope.Benchmark)
    public static class FreshEntries {
        static final int COUNT = 1 << 18;
        final byte[][] bodies = new byte[COUNT][];
        final byte[][] signatures = new byte[COUNT][];
        DeviceAuthority device;
        String identity;
        int next;

        @Setup
        public void setUp() {
            TestIdentity carol = TestIdentity.named("bench-fresh");
            TestIdentity.Device c = carol.device("dev_c");
            for (int i = 0; i < COUNT; i++) {
                Entry e = c.set("/profile/display-name", "Carol in the benchmark " + i);
                bodies[i] = e.bodyBytes();
                signatures[i] = e.signature();
            }
            identity = carol.id();
            device = new DeviceAuthority("dev_c", PublicKey.parse(c.key().publicKeyBytes()).orElseThrow(), DeviceAuthority.Status.ACTIVE, null);
        }
    }

    /** The crypto limit: BouncyCastle's verify with the public key given as its 32 bytes. */
    @Benchmark
    public boolean rawVerifyEncodedKey() {
        return Ed25519.verify(signature, 0, devicePublicKey, 0, bodyBytes, 0, bodyBytes.length);
    }

    /** The crypto limit with the key point already decoded (what a cached device key allows). */
    @Benchmark
    public boolean rawVerifyDecodedKey() {
        return Ed25519.verify(signature, 0, decodedKey, bodyBytes, 0, bodyBytes.length);
    }

    /** libsodium 1.0.18's verify (lazysodium, JNA direct mapping), key as 32 bytes: cofactorless, so alone it is not the rule. */
    @Benchmark
    public boolean rawVerifyLibsodium(LibsodiumLoaded sodium) {
        return sodium.nativeFirst.libsodiumAccepts(devicePublicKey, bodyBytes, signature);
    }

    /** libsodium, loaded once (its raw half, the verifier's {@code libsodiumAccepts}). */
    @State(Scope.Benchmark)
    public static class LibsodiumLoaded {
        NativeFirstVerifier nativeFirst;

        @Setup
        public void setUp() {
            nativeFirst = Verifiers.nativeFirst();
        }
    }

    /** The native-first check (the service's default), built once. */
    @State(Scope.Benchmark)
    public static class NativeFirstCheck {
        SignatureCheck check;

        @Setup
        public void setUp() {
            check = new SignatureCheck(Verifiers.nativeFirst());
        }
    }

    /** {@link #verifyEntry} with the native-first verifier: what the service pays per new honest entry. */
    @Benchmark
    public boolean verifyEntryNativeFirst(FreshEntries fresh, NativeFirstCheck nativeFirst) {
        return verifyEntry(fresh, nativeFirst.check);
    }

    /** BLAKE3 of the body alone. */
    @Benchmark
    public Hash blake3Body() {
        return Hash.blake3(bodyBytes);
    }

    /**
     * The whole per-entry path for an entry seen for the first time: decode the canonical bytes,
     * hash, check the rules, verify the signature (and remember that it verified).
     */
    @Benchmark
    public boolean verifyEntry(FreshEntries fresh) {
        return verifyEntry(fresh, SignatureCheck.DEFINITION);
    }

    private static boolean verifyEntry(FreshEntries fresh, SignatureCheck check) {
        int i = fresh.next;
        fresh.next = (i + 1) & (FreshEntries.COUNT - 1);
        Entry entry = Entry.decode(fresh.bodies[i], fresh.signatures[i]);
        Optional<?> defect = EntryRules.check(entry.body(), fresh.identity);
        return defect.isEmpty() && entry.signatureVerifies(fresh.device.key(), check);
    }

    /** The same path for an entry whose signature this process already verified (a re-evaluation re-reading it). */
    @Benchmark
    public boolean verifyEntryAgain() {
        Entry entry = Entry.decode(bodyBytes, signature);
        Optional<?> defect = EntryRules.check(entry.body(), identity);
        return defect.isEmpty() && entry.signatureVerifies(device.key(), SignatureCheck.DEFINITION);
    }

    /** The merge step of one singleton path with two candidates (the hot path's per-entry merge). */
    @Benchmark
    public Optional<SingletonState> mergePath() {
        return SingletonMerge.merge("/profile/display-name", pathCandidates);
    }

    /**
     * Re-evaluating a whole identity of 102 entries: the rare slow path. Its signatures were
     * verified before (as in the service, where every stored entry was verified on arrival).
     */
    @Benchmark
    public MergedState assembleIdentityOf102Entries() {
        return IdentityAssembler.assemble(identity, authority, history, SignatureCheck.DEFINITION);
    }
}
