package io.jolt.stream.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** PROTOCOL §6 and §7: given eligible entries, expect resolution, conflicts, append order and level. */
class MergeRulesTest {
    final TestIdentity alice = TestIdentity.named("alice");
    final AuthorityRecord authorizeA = alice.authorize("dev_a");
    final AuthorityRecord authorizeB = alice.authorize("dev_b");
    final TestIdentity.Device devA = alice.device("dev_a");
    final TestIdentity.Device devB = alice.device("dev_b");

    static SingletonState singleton(MergedState state, String path) {
        return state.singletons().stream().filter(s -> s.path().equals(path)).findFirst().orElseThrow();
    }

    @Test
    void aDevicesLaterEntrySupersedesItsEarlierOneOnThePath() {
        Entry first = devA.set("/profile", "v1");
        Entry second = devA.set("/profile", "v2");
        SingletonState profile = singleton(alice.merge(authorizeA, authorizeB, second, first), "/profile");
        assertThat(profile.current()).isEqualTo(second);
        assertThat(profile.conflicts()).isEmpty();
    }

    @Test
    void concurrentHeadsPickTheGreatestSequenceThenDeviceIdThenHashAndKeepTheRestAsConflicts() {
        Entry a0 = devA.set("/other", "pad");
        Entry a1 = devA.set("/profile", "a");
        Entry b0 = devB.set("/profile", "b");
        SingletonState profile = singleton(alice.merge(authorizeA, authorizeB, a0, a1, b0), "/profile");
        assertThat(profile.current()).as("sequence 1 beats sequence 0").isEqualTo(a1);
        assertThat(profile.conflicts()).containsExactly(b0);

        TestIdentity bob = TestIdentity.named("bob");
        AuthorityRecord x = bob.authorize("dev_x");
        AuthorityRecord y = bob.authorize("dev_y");
        Entry fromX = bob.device("dev_x").set("/p", "x");
        Entry fromY = bob.device("dev_y").set("/p", "y");
        assertThat(singleton(bob.merge(x, y, fromY, fromX), "/p").current()).as("equal sequences: greater device_id").isEqualTo(fromY);
    }

    @Test
    void conflictsAscendByTheHeadTuple() {
        TestIdentity carol = TestIdentity.named("carol");
        List<AuthorityRecord> auth = Stream.of("d1", "d2", "d3").map(carol::authorize).toList();
        List<Entry> writes = Stream.of("d3", "d1", "d2").map(d -> carol.device(d).set("/p", d)).toList();
        SingletonState p = singleton(carol.merge(auth, writes), "/p");
        assertThat(p.current().deviceId()).isEqualTo("d3");
        assertThat(p.conflicts()).extracting(Entry::deviceId).containsExactly("d1", "d2");
    }

    @Test
    void createdAtNeverPicksASingletonWinner() {
        Entry b0 = devB.set("/p", "b");
        Entry a0 = devA.set("/p", "a"); // written later, so a greater created_at
        assertThat(a0.body().createdAt()).isGreaterThan(b0.body().createdAt());
        assertThat(singleton(alice.merge(authorizeA, authorizeB, a0, b0), "/p").current()).isEqualTo(b0);
    }

    @Test
    void aPathIsClockSensitiveWhenTheV1RuleWouldServeALoserWithALaterCreatedAt() {
        Entry b0 = devB.set("/p", "b");
        Entry a0 = devA.set("/p", "a"); // later clock, loses under §6 (dev_a < dev_b), wins under v1
        SingletonState p = singleton(alice.merge(authorizeA, authorizeB, a0, b0), "/p");
        assertThat(p.v1Winner()).isEqualTo(a0);
        assertThat(p.clockSensitive()).isTrue();
    }

    @Test
    void aPathIsNotClockSensitiveWhenBothRulesAgreeOrThereIsNoConflict() {
        Entry a0 = devA.set("/p", "a");
        Entry b0 = devB.set("/p", "b"); // wins under §6 and, written later, under v1 too
        SingletonState p = singleton(alice.merge(authorizeA, authorizeB, a0, b0), "/p");
        assertThat(p.current()).isEqualTo(b0);
        assertThat(p.clockSensitive()).isFalse();

        Entry alone = devA.set("/q", "only");
        assertThat(singleton(alice.merge(authorizeA, authorizeB, a0, b0, alone), "/q").clockSensitive()).isFalse();
    }

    @Test
    void equalClocksFallBackToTheSameTupleSoTheRulesAgree() {
        Entry a0 = devA.writeAt(7, new Operation.SetPath("/p", TestIdentity.cid("a"), Operation.Mode.SINGLETON));
        Entry b0 = devB.writeAt(7, new Operation.SetPath("/p", TestIdentity.cid("b"), Operation.Mode.SINGLETON));
        SingletonState p = singleton(alice.merge(authorizeA, authorizeB, a0, b0), "/p");
        assertThat(p.v1Winner()).isEqualTo(p.current());
        assertThat(p.clockSensitive()).isFalse();
    }

    @Test
    void anObservedHeadIsSupersededEvenAcrossDevices() {
        Entry b0 = devB.set("/p", "b");
        Entry a0 = devA.set("/p", "a", b0.hash());
        SingletonState p = singleton(alice.merge(authorizeA, authorizeB, a0, b0), "/p");
        assertThat(p.current()).isEqualTo(a0);
        assertThat(p.conflicts()).isEmpty();
    }

    @Test
    void headsObservedBySupersededCandidatesStillCount() {
        Entry b0 = devB.set("/p", "b");
        Entry a0 = devA.set("/p", "a0", b0.hash());
        Entry a1 = devA.set("/p", "a1"); // supersedes a0; a0's observation of b0 still holds
        SingletonState p = singleton(alice.merge(authorizeA, authorizeB, b0, a0, a1), "/p");
        assertThat(p.current()).isEqualTo(a1);
        assertThat(p.conflicts()).isEmpty();
    }

    @Test
    void headsNamingEntriesOfOtherPathsHaveNoEffect() {
        Entry b0 = devB.set("/p", "b");
        Entry bOther = devB.set("/q", "q");
        Entry a0 = devA.set("/p", "a", bOther.hash());
        SingletonState p = singleton(alice.merge(authorizeA, authorizeB, a0, b0, bOther), "/p");
        assertThat(p.current()).isEqualTo(b0);
        assertThat(p.conflicts()).containsExactly(a0);
    }

    @Test
    void aTombstoneHeadResolvesTombstonedWithoutFallingBackAndARestoreObservingItIsPresent() {
        Entry set = devA.set("/notes/1", "first");
        Entry tombstone = devB.tombstone("/notes/1", set.hash());
        MergedState deleted = alice.merge(authorizeA, authorizeB, set, tombstone);
        assertThat(deleted.resolve("/notes/1")).isEqualTo(new Resolution.Tombstoned("/notes/1", Head.of(tombstone), 0));
        Entry restore = devA.set("/notes/1", "second", tombstone.hash());
        MergedState restored = alice.merge(authorizeA, authorizeB, set, tombstone, restore);
        assertThat(restored.resolve("/notes/1")).isEqualTo(
                new Resolution.Present("/notes/1", TestIdentity.cid("second"), Head.of(restore), 0));
    }

    @Test
    void resolveDistinguishesMissingFromTombstonedAndRejectsNonCanonicalAddresses() {
        MergedState state = alice.merge(authorizeA, devA.set("/p", "x"));
        assertThat(state.resolve("/missing")).isEqualTo(new Resolution.NotFound("/missing"));
        assertThat(state.resolve("/p/")).isEqualTo(new Resolution.NonCanonicalPath("/p/"));
        assertThat(state.resolve("/p")).isInstanceOf(Resolution.Present.class);
    }

    @Test
    void appendRecordsCoexistOrderedByPathThenCreatedAtSequenceDeviceAndHash() {
        Entry b0 = devB.append("/posts/2", "b0");
        Entry a0 = devA.append("/posts/1", "a0");
        Entry a1 = devA.append("/posts/1", "a1");
        Entry b1 = devB.append("/posts/1", "b1");
        MergedState state = alice.merge(authorizeA, authorizeB, b1, a1, b0, a0);
        assertThat(state.appends()).extracting(AppendRecord::entryHash).containsExactly(a0.hash(), a1.hash(), b1.hash(), b0.hash());
        assertThat(state.singletons()).isEmpty();
    }

    @Test
    void appendTiesOnCreatedAtFallToSequenceThenDeviceId() {
        Entry b0 = appendAt(devB, 5);
        Entry a0 = appendAt(devA, 5);
        Entry a1 = appendAt(devA, 4);
        Entry b1 = appendAt(devB, 5);
        MergedState state = alice.merge(authorizeA, authorizeB, b1, a0, b0, a1);
        assertThat(state.appends()).extracting(AppendRecord::entryHash).as("created_at 4 first; at 5: sequence, then device_id")
                .containsExactly(a1.hash(), a0.hash(), b0.hash(), b1.hash());
    }

    private static Entry appendAt(TestIdentity.Device device, long createdAt) {
        return device.writeAt(createdAt, new Operation.SetPath("/l", TestIdentity.cid("x" + createdAt), Operation.Mode.APPEND));
    }

    @Test
    void aTombstoneDoesNotTouchAppendRecordsAndSingletonAndAppendBindingsOfAPathAreSeparate() {
        Entry post = devA.append("/feed", "post");
        Entry single = devA.set("/feed", "single");
        Entry tomb = devA.tombstone("/feed");
        MergedState state = alice.merge(authorizeA, post, single, tomb);
        assertThat(state.appends()).extracting(AppendRecord::entryHash).containsExactly(post.hash());
        assertThat(state.resolve("/feed")).isInstanceOf(Resolution.Tombstoned.class);
    }

    @Test
    void enumerateIsAPrefixMatchOverAppendRecords() {
        Entry p1 = devA.append("/posts/1", "1");
        Entry p2 = devA.append("/posts/2", "2");
        Entry other = devA.append("/postscript", "x");
        MergedState state = alice.merge(authorizeA, p1, p2, other);
        assertThat(state.enumerate("/posts/")).extracting(AppendRecord::entryHash).containsExactly(p1.hash(), p2.hash());
        assertThat(state.enumerate("/posts")).hasSize(3);
        assertThat(state.enumerate("/")).hasSize(3);
        assertThatThrownBy(() -> state.enumerate("posts")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRequiredLevelIsTheGreatestLevelOfEligibleEntries() {
        Entry set = devA.set("/p", "1");
        assertThat(alice.merge(authorizeA, set).requiredOperationLevel()).isEqualTo(1);
        Entry tomb = devA.tombstone("/p");
        assertThat(alice.merge(authorizeA, set, tomb).requiredOperationLevel()).isEqualTo(2);
        Entry observing = devA.append("/log", "x");
        Entry withHeads = devA.set("/p", "2", tomb.hash());
        assertThat(alice.merge(authorizeA, set, tomb, observing, withHeads).requiredOperationLevel()).isEqualTo(3);
        Entry later = devA.set("/p", "3");
        assertThat(alice.merge(authorizeA, set, tomb, observing, withHeads, later).requiredOperationLevel())
                .as("appending level-1 entries never lowers it").isEqualTo(3);
    }

    @Test
    void pendingAndRejectedEntriesNeverRaiseTheLevel() {
        Entry set = devA.set("/p", "1");
        devA.set("/p", "skipped");
        Entry pendingTombstone = devA.tombstone("/p");
        Entry strangerTombstone = alice.device("dev_x").tombstone("/p");
        assertThat(alice.merge(authorizeA, set, pendingTombstone, strangerTombstone).requiredOperationLevel()).isEqualTo(1);
    }

    @Test
    void utf8ByteOrderIsNotUtf16Order() {
        String supplementary = "/\uD83D\uDE00"; // U+1F600
        String privateUse = "/\uE000";
        assertThat(supplementary.compareTo(privateUse)).as("UTF-16 order").isLessThan(0);
        assertThat(Utf8.compare(supplementary, privateUse)).as("UTF-8 byte order").isGreaterThan(0);
        MergedState state = alice.merge(authorizeA, devA.set(supplementary, "s"), devA.set(privateUse, "p"));
        assertThat(state.singletons()).extracting(SingletonState::path).containsExactly(privateUse, supplementary);
        assertThat(state.singletons()).isSortedAccordingTo(Comparator.comparing(SingletonState::path, Utf8.ORDER));
    }
}
