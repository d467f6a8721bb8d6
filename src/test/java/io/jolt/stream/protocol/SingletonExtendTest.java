package io.jolt.stream.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The hot path's merge step (PROTOCOL §6): given a path's active heads, when the next eligible
 * candidate of a device arrives, expect the heads after it. Folding it over any arrival order
 * that keeps each device's order gives exactly the whole merge.
 */
class SingletonExtendTest {
    final TestIdentity alice = TestIdentity.named("alice");
    final TestIdentity.Device devA = alice.device("dev_a");
    final TestIdentity.Device devB = alice.device("dev_b");

    static final java.util.function.Predicate<Hash> NOTHING_OBSERVED = h -> false;

    @Test
    void theFirstCandidateBecomesTheOnlyHead() {
        Entry a0 = devA.set("/p", "a");
        assertThat(SingletonMerge.extend(List.of(), a0, NOTHING_OBSERVED).active()).containsExactly(a0);
    }

    @Test
    void aDevicesNextCandidateReplacesItsEarlierHead() {
        Entry a0 = devA.set("/p", "a0");
        Entry b0 = devB.set("/p", "b0");
        Entry a1 = devA.set("/p", "a1");
        assertThat(SingletonMerge.extend(List.of(a0, b0), a1, NOTHING_OBSERVED).active()).containsExactlyInAnyOrder(b0, a1);
    }

    @Test
    void aCandidateSupersedesTheHeadsItObservedOfOtherDevices() {
        Entry b0 = devB.set("/p", "b0");
        Entry a0 = devA.set("/p", "a0", b0.hash());
        SingletonMerge.Extension next = SingletonMerge.extend(List.of(b0), a0, NOTHING_OBSERVED);
        assertThat(next.active()).containsExactly(a0);
        assertThat(next.observedAbsent()).as("b0 is stored: it never arrives again, nothing to remember").isEmpty();
    }

    @Test
    void anObservedHashNotYetArrivedIsRememberedAndTheCandidateBearingItIsNoHead() {
        Entry b0 = devB.set("/p", "b0");
        Entry a0 = devA.set("/p", "a0", b0.hash());
        SingletonMerge.Extension first = SingletonMerge.extend(List.of(), a0, NOTHING_OBSERVED);
        assertThat(first.observedAbsent()).containsExactly(b0.hash());
        Set<Hash> remembered = new HashSet<>(first.observedAbsent());
        assertThat(SingletonMerge.extend(first.active(), b0, remembered::contains).active()).containsExactly(a0);
    }

    @Test
    void theHeadsResolveAsTheWholeMergeDoes() {
        Entry a0 = devA.set("/p", "a0");
        Entry b0 = devB.set("/p", "b0");
        SingletonMerge.Extension next = SingletonMerge.extend(List.of(a0), b0, NOTHING_OBSERVED);
        assertThat(SingletonMerge.resolve("/p", next.active())).isEqualTo(SingletonMerge.merge("/p", List.of(a0, b0)));
    }

    @Property(tries = 200)
    void foldingExtendOverAnyDeviceOrderedArrivalEqualsTheWholeMerge(@ForAll long seed, @ForAll @IntRange(min = 1, max = 30) int writes) {
        Random random = new Random(seed);
        TestIdentity bob = TestIdentity.named("bob-" + seed);
        List<TestIdentity.Device> devices = List.of(bob.device("d1"), bob.device("d2"), bob.device("d3"));
        List<List<Entry>> byDevice = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<Entry> written = new ArrayList<>();
        for (int i = 0; i < writes; i++) {
            int d = random.nextInt(devices.size());
            List<Hash> observed = new ArrayList<>();
            for (Entry earlier : written) {
                if (random.nextInt(4) == 0) {
                    observed.add(earlier.hash());
                }
            }
            Entry e = random.nextInt(5) == 0 ? devices.get(d).tombstone("/p", observed.toArray(Hash[]::new))
                    : devices.get(d).set("/p", "v" + i, observed.toArray(Hash[]::new));
            byDevice.get(d).add(e);
            written.add(e);
        }
        List<Entry> heads = List.of();
        Set<Hash> remembered = new HashSet<>();
        for (Entry e : interleave(byDevice, random)) {
            SingletonMerge.Extension next = SingletonMerge.extend(heads, e, remembered::contains);
            heads = next.active();
            remembered.addAll(next.observedAbsent());
        }
        assertThat(SingletonMerge.resolve("/p", heads)).isEqualTo(SingletonMerge.merge("/p", written));
    }

    /** A random merge of the devices' sequences, each kept in its own order (as the hot path sees them). */
    private static List<Entry> interleave(List<List<Entry>> byDevice, Random random) {
        List<Integer> next = new ArrayList<>(List.of(0, 0, 0));
        List<Entry> out = new ArrayList<>();
        int total = byDevice.stream().mapToInt(List::size).sum();
        while (out.size() < total) {
            int d = random.nextInt(byDevice.size());
            if (next.get(d) < byDevice.get(d).size()) {
                out.add(byDevice.get(d).get(next.get(d)));
                next.set(d, next.get(d) + 1);
            }
        }
        return out;
    }
}
