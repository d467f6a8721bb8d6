package io.jolt.stream.bench;

import io.jolt.stream.protocol.AuthorityAction;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.workload.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * The crypto limit the bench compares against: a raw Ed25519 verify (BouncyCastle's, the rule's
 * definition, or libsodium's) over the workload's own entries, keys given as bytes, on as many
 * threads as the service has stream threads.
 */
public final class RawVerifyRate {
    /** One raw verify: signature, key and message as bytes. */
    @FunctionalInterface
    public interface RawCheck {
        boolean verify(byte[] signature, byte[] publicKey, byte[] message);
    }

    public static final RawCheck BOUNCYCASTLE = (signature, key, message) -> Ed25519.verify(signature, 0, key, 0, message, 0, message.length);

    private final List<Entry> sample;
    private final Map<String, byte[]> keys = new HashMap<>();
    private final RawCheck check;

    public RawVerifyRate(Workload.Generated workload, RawCheck check) {
        this.check = check;
        for (AuthorityRecord r : workload.authority()) {
            if (r.body().action() instanceof AuthorityAction.Authorize a) {
                keys.put(r.body().identity() + "/" + a.deviceId(), a.devicePublicKey());
            }
        }
        sample = workload.entries().stream().filter(e -> keys.containsKey(keyOf(e))).limit(20_000).toList();
    }

    /** Verifies per second, timed for {@code timed} after an untimed run of {@code untimed} (so that the JIT has compiled the loop). */
    public double measure(int threads, Duration untimed, Duration timed) throws Exception {
        System.gc(); // what generating the workload left behind is collected now, not while the loop is timed
        if (!untimed.isZero()) {
            verifyFor(threads, untimed);
        }
        return verifyFor(threads, timed);
    }

    private double verifyFor(int threads, Duration duration) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            long deadline = System.nanoTime() + duration.toNanos();
            List<Future<Long>> counts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                counts.add(pool.submit(() -> verifyUntil(deadline, offset)));
            }
            long total = 0;
            for (Future<Long> c : counts) {
                total += c.get();
            }
            return total / (duration.toNanos() / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }

    private long verifyUntil(long deadline, int offset) {
        long n = 0;
        for (int i = offset; System.nanoTime() < deadline; i = (i + 1) % sample.size()) {
            Entry e = sample.get(i);
            byte[] body = e.bodyBytes();
            check.verify(e.signature(), keys.get(keyOf(e)), body);
            n++;
        }
        return n;
    }

    private static String keyOf(Entry e) {
        return e.body().identity() + "/" + e.deviceId();
    }
}
