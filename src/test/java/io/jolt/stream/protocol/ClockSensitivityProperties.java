package io.jolt.stream.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.protocol.json.Bundle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@code clock_sensitive} against a direct computation of RFC-0003's v1 rule (the greatest
 * {@code created_at} among a path's active heads, ties by PROTOCOL §6's tuple), written here
 * from the entries' fields rather than with the core's comparators: on the vectors' concurrent
 * writes and on random histories of several devices with clocks that tie and go back.
 */
class ClockSensitivityProperties {
    /** §6: greatest device_sequence, then device_id, then entry hash (lowercase hex orders as the bytes do). */
    static final Comparator<Entry> SECTION_6 = Comparator.<Entry, Long>comparing(Entry::sequence, Long::compareUnsigned)
            .thenComparing(Entry::deviceId).thenComparing(e -> e.hash().hex());
    /** RFC-0003 v1: the signer's created_at (a uint64: the vectors use 2^64 - 1) first. */
    static final Comparator<Entry> V1 = Comparator.<Entry, Long>comparing(e -> e.body().createdAt(), Long::compareUnsigned).thenComparing(SECTION_6);

    @Example
    void everyConflictOfTheConcurrentVectorsIsFlaggedAsTheV1RuleSays() {
        Bundle bundle = new Bundle();
        Vectors.lines("concurrent").forEach(bundle::add);
        int sensitive = 0;
        int equalSequences = 0;
        for (MergedState identity : bundle.merge(SignatureCheck.DEFINITION)) {
            for (SingletonState path : identity.singletons()) {
                if (path.conflicts().isEmpty()) {
                    continue;
                }
                List<Entry> heads = new ArrayList<>(path.conflicts());
                heads.add(path.current());
                boolean expected = !heads.stream().max(V1).orElseThrow().equals(path.current());
                assertThat(path.clockSensitive()).as(path.path()).isEqualTo(expected);
                sensitive += expected ? 1 : 0;
                equalSequences += path.conflicts().stream().anyMatch(c -> c.sequence() == path.current().sequence()) ? 1 : 0;
            }
        }
        assertThat(sensitive).as("a winner by sequence with an older clock than a loser's").isPositive();
        assertThat(equalSequences).as("heads at equal sequences, decided by device_id").isPositive();
    }

    @Example
    void theOldestClockWithTheHighestSequenceWinsUnderSection6AndLosesUnderV1() {
        TestIdentity dana = TestIdentity.named("dana");
        TestIdentity.Device a = dana.device("dev_a");
        TestIdentity.Device b = dana.device("dev_b");
        Entry first = a.writeAt(1, set("a0"));
        Entry oldButLonger = a.writeAt(2, set("a1"));
        Entry recent = b.writeAt(50, set("b0"));
        SingletonState p = singleton(dana.merge(dana.authorize("dev_a"), dana.authorize("dev_b"), first, oldButLonger, recent));
        assertThat(p.current()).isEqualTo(oldButLonger);
        assertThat(p.clockSensitive()).isTrue();
    }

    @Property(tries = 150)
    void randomHistoriesAreClockSensitiveExactlyWhenTheV1RuleServesAnotherHead(
            @ForAll @Size(min = 2, max = 4) List<@Size(min = 1, max = 3) List<@IntRange(min = 0, max = 6) Integer>> clocksPerDevice) {
        TestIdentity someone = TestIdentity.named("clocks");
        List<Object> records = new ArrayList<>();
        Map<String, Entry> lastOfEachDevice = new HashMap<>();
        for (int d = 0; d < clocksPerDevice.size(); d++) {
            String deviceId = "dev_" + d;
            records.add(someone.authorize(deviceId));
            TestIdentity.Device device = someone.device(deviceId);
            for (int clock : clocksPerDevice.get(d)) {
                Entry written = device.writeAt(clock, set(deviceId + "@" + clock));
                records.add(written);
                lastOfEachDevice.put(deviceId, written);
            }
        }
        SingletonState p = singleton(someone.merge(records.toArray()));
        Entry section6 = lastOfEachDevice.values().stream().max(SECTION_6).orElseThrow();
        Entry v1 = lastOfEachDevice.values().stream().max(V1).orElseThrow();
        assertThat(p.current()).isEqualTo(section6);
        assertThat(p.v1Winner()).isEqualTo(v1);
        assertThat(p.clockSensitive()).isEqualTo(!v1.equals(section6));
    }

    static Operation set(String content) {
        return new Operation.SetPath("/p", TestIdentity.cid(content), Operation.Mode.SINGLETON);
    }

    static SingletonState singleton(MergedState state) {
        return state.singletons().stream().filter(s -> s.path().equals("/p")).findFirst().orElseThrow();
    }
}
