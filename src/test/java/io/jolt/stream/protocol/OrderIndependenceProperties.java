package io.jolt.stream.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.protocol.json.Bundle;
import io.jolt.stream.protocol.json.MergedStateJson;
import io.jolt.stream.protocol.json.RecordJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Determinism is the product: the merged state is a function of the SET of records. Shuffling,
 * duplicating and splitting the lines among several sources never changes it.
 */
public class OrderIndependenceProperties {
    @Provide
    Arbitrary<String> kinds() {
        return Arbitraries.of(Vectors.kinds());
    }

    @Property(tries = 60)
    void vectorBundlesMergeTheSameInAnyOrderWithDuplicatesAndSplits(@ForAll("kinds") String kind, @ForAll Random random) {
        List<byte[]> lines = Vectors.lines(kind);
        assertThat(merge(rearrange(lines, random))).isEqualTo(merge(lines));
    }

    @Property(tries = 40)
    void mixedScenariosAreOrderIndependent(@ForAll Random random) {
        List<byte[]> lines = Vectors.lines("mixed");
        assertThat(merge(rearrange(lines, random))).isEqualTo(merge(lines));
    }

    @Property(tries = 80)
    void generatedHistoriesAreOrderIndependent(@ForAll("seeds") long seed, @ForAll Random random) {
        List<byte[]> lines = GeneratedHistory.lines(seed);
        assertThat(merge(rearrange(lines, random))).isEqualTo(merge(lines));
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    /**
     * Shuffles, duplicates a random subset, and splits the lines among 1-4 "sources" whose
     * contributions are concatenated in random order.
     */
    public static List<byte[]> rearrange(List<byte[]> lines, Random random) {
        List<byte[]> all = new ArrayList<>(lines);
        for (byte[] line : lines) {
            if (random.nextInt(4) == 0) {
                all.add(line);
            }
        }
        int sources = 1 + random.nextInt(4);
        List<List<byte[]>> split = new ArrayList<>();
        for (int i = 0; i < sources; i++) {
            split.add(new ArrayList<>());
        }
        for (byte[] line : all) {
            split.get(random.nextInt(sources)).add(line);
        }
        Collections.shuffle(split, random);
        List<byte[]> out = new ArrayList<>();
        for (List<byte[]> source : split) {
            Collections.shuffle(source, random);
            out.addAll(source);
        }
        return out;
    }

    static String merge(List<byte[]> lines) {
        Bundle bundle = new Bundle();
        lines.forEach(bundle::add);
        return MergedStateJson.write(bundle.merge(SignatureCheck.DEFINITION));
    }

    /** Random histories from the writers: forks, gaps, tombstones, observed heads, revocations, bad copies. */
    public static final class GeneratedHistory {
        public static List<byte[]> lines(long seed) {
            Random r = new Random(seed);
            TestIdentity identity = TestIdentity.named("gen-" + seed);
            List<Object> records = new ArrayList<>();
            List<String> devices = List.of("dev_a", "dev_b", "dev_c").subList(0, 1 + r.nextInt(3));
            List<TestIdentity.Device> writers = new ArrayList<>();
            List<Entry> written = new ArrayList<>();
            for (String device : devices) {
                if (r.nextInt(6) > 0) {
                    records.add(identity.authorize(device));
                }
                writers.add(identity.device(device));
            }
            String[] paths = {"/p", "/q", "/notes/1", "/posts/1"};
            int steps = 3 + r.nextInt(14);
            for (int i = 0; i < steps; i++) {
                int w = r.nextInt(writers.size());
                TestIdentity.Device writer = writers.get(w);
                if (r.nextInt(10) == 0) {
                    writers.set(w, writer.fork()); // the old writer may continue too: a fork
                    writers.add(writer);
                }
                String path = paths[r.nextInt(paths.length)];
                Hash[] observed = !written.isEmpty() && r.nextInt(3) == 0
                        ? new Hash[] {written.get(r.nextInt(written.size())).hash()} : new Hash[0];
                Entry e = switch (r.nextInt(4)) {
                    case 0 -> writer.tombstone(path, observed);
                    case 1 -> writer.append(path, "c" + i);
                    default -> writer.set(path, "c" + i, observed);
                };
                written.add(e);
                if (r.nextInt(8) > 0) {
                    records.add(e); // some entries are never received: gaps
                }
                if (r.nextInt(12) == 0) {
                    byte[] signature = e.signature();
                    signature[r.nextInt(64)] ^= (byte) (1 << r.nextInt(8));
                    records.add(Entry.of(e.body(), signature));
                }
            }
            if (r.nextInt(3) == 0 && !written.isEmpty()) {
                Entry pinned = written.get(r.nextInt(written.size()));
                records.add(identity.revoke(pinned.deviceId(), r.nextBoolean() ? new Cutoff(pinned.sequence(), pinned.hash()) : null));
            }
            List<byte[]> lines = new ArrayList<>();
            for (Object record : records) {
                String json = record instanceof Entry e ? RecordJson.write(e) : RecordJson.write((AuthorityRecord) record);
                lines.add(json.getBytes(StandardCharsets.UTF_8));
            }
            return lines;
        }
    }
}
