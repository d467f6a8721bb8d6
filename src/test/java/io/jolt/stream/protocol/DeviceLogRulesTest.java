package io.jolt.stream.protocol;

import static io.jolt.stream.protocol.RejectionReason.BAD_SIGNATURE;
import static io.jolt.stream.protocol.RejectionReason.FORK_DISCARDED;
import static io.jolt.stream.protocol.RejectionReason.INVALID_ENTRY;
import static io.jolt.stream.protocol.RejectionReason.PENDING;
import static io.jolt.stream.protocol.RejectionReason.REVOKED_DEVICE;
import static io.jolt.stream.protocol.RejectionReason.UNKNOWN_DEVICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;

/** PROTOCOL §5: given received entries, expect each one's classification and the eligible branch. */
class DeviceLogRulesTest {
    final TestIdentity alice = TestIdentity.named("alice");
    final AuthorityRecord authorizeA = alice.authorize("dev_a");
    final TestIdentity.Device devA = alice.device("dev_a");

    static List<Hash> eligible(MergedState state, String device) {
        return state.deviceLogs().stream().filter(l -> l.authority().deviceId().equals(device))
                .flatMap(l -> l.eligible().stream()).map(Entry::hash).toList();
    }

    static DeviceView device(MergedState state, String id) {
        return state.devices().stream().filter(d -> d.deviceId().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void aLinkedChainFromGenesisIsEligible() {
        Entry e0 = devA.set("/a", "0");
        Entry e1 = devA.set("/a", "1");
        MergedState state = alice.merge(e1, authorizeA, e0);
        assertThat(eligible(state, "dev_a")).containsExactly(e0.hash(), e1.hash());
        assertThat(device(state, "dev_a").head()).isEqualTo(Head.of(e1));
        assertThat(state.rejected()).isEmpty();
    }

    @Test
    void entriesOfAnUnauthorizedDeviceAreUnknownDeviceAndTheDeviceIsListedAsUnknown() {
        Entry stranger = alice.device("dev_x").set("/a", "x");
        MergedState state = alice.merge(authorizeA, stranger);
        assertThat(state.rejected()).extracting(Rejection::entryHash, Rejection::reason).containsExactly(tuple(stranger.hash(), UNKNOWN_DEVICE));
        assertThat(device(state, "dev_x").status()).isEqualTo(DeviceView.Status.UNKNOWN);
    }

    @Test
    void aLateAuthorizeAdmitsEntriesThatArrivedBeforeIt() {
        Entry early = alice.device("dev_b").set("/a", "b");
        assertThat(alice.merge(authorizeA, early).rejected()).extracting(Rejection::reason).containsExactly(UNKNOWN_DEVICE);
        AuthorityRecord authorizeB = alice.authorize("dev_b");
        assertThat(eligible(alice.merge(authorizeA, early, authorizeB), "dev_b")).containsExactly(early.hash());
    }

    @Test
    void aBadSignatureIsRejectedAndAGoodCopyOfTheSameBodyIsStillUsed() {
        Entry good = devA.set("/a", "0");
        byte[] flipped = good.signature();
        flipped[10] ^= 0x40;
        Entry bad = Entry.of(good.body(), flipped);
        MergedState onlyBad = alice.merge(authorizeA, bad);
        assertThat(onlyBad.rejected()).extracting(Rejection::reason).containsExactly(BAD_SIGNATURE);
        assertThat(onlyBad.singletons()).isEmpty();
        MergedState both = alice.merge(bad, authorizeA, good, bad);
        assertThat(eligible(both, "dev_a")).containsExactly(good.hash());
        assertThat(both.rejected()).extracting(Rejection::entryHash, Rejection::reason).containsExactly(tuple(good.hash(), BAD_SIGNATURE));
    }

    @Test
    void aSignatureByAnotherAuthorizedDeviceIsABadSignature() {
        AuthorityRecord authorizeB = alice.authorize("dev_b");
        EntryBody body = devA.set("/a", "0").body();
        Entry signedByB = Entry.of(body, alice.device("dev_b").key().sign(body.canonicalBytes()));
        assertThat(alice.merge(authorizeA, authorizeB, signedByB).rejected()).extracting(Rejection::reason).containsExactly(BAD_SIGNATURE);
    }

    @Test
    void identicalEntriesCountOnce() {
        Entry e0 = devA.set("/a", "0");
        MergedState state = alice.merge(authorizeA, e0, e0, e0);
        assertThat(eligible(state, "dev_a")).containsExactly(e0.hash());
        assertThat(state.rejected()).isEmpty();
    }

    @Test
    void anEntryWithoutAPathToGenesisIsPendingUntilItsPredecessorArrives() {
        Entry e0 = devA.set("/a", "0");
        Entry e1 = devA.set("/a", "1");
        Entry e2 = devA.set("/a", "2");
        MergedState gap = alice.merge(authorizeA, e0, e2);
        assertThat(eligible(gap, "dev_a")).containsExactly(e0.hash());
        assertThat(gap.rejected()).extracting(Rejection::entryHash, Rejection::reason).containsExactly(tuple(e2.hash(), PENDING));
        assertThat(eligible(alice.merge(authorizeA, e0, e2, e1), "dev_a")).containsExactly(e0.hash(), e1.hash(), e2.hash());
    }

    @Test
    void ofEqualLengthForksTheGreaterFinalEntryHashWinsAndTheOtherIsForkDiscarded() {
        Entry e0 = devA.set("/a", "0");
        TestIdentity.Device other = devA.fork();
        Entry left = devA.set("/a", "left");
        Entry right = other.set("/a", "right");
        Entry winner = left.hash().compareTo(right.hash()) > 0 ? left : right;
        Entry loser = winner == left ? right : left;
        MergedState state = alice.merge(authorizeA, right, e0, left);
        assertThat(eligible(state, "dev_a")).containsExactly(e0.hash(), winner.hash());
        assertThat(state.rejected()).extracting(Rejection::entryHash, Rejection::reason).containsExactly(tuple(loser.hash(), FORK_DISCARDED));
        assertThat(state.equivocations()).singleElement().satisfies(eq -> {
            assertThat(eq.deviceSequence()).isEqualTo(1);
            assertThat(eq.entryHashes()).containsExactlyInAnyOrder(left.hash(), right.hash());
        });
    }

    @Test
    void theLongerForkWinsWhateverItsHashes() {
        Entry e0 = devA.set("/a", "0");
        TestIdentity.Device other = devA.fork();
        Entry short1 = devA.set("/a", "s1");
        Entry long1 = other.set("/a", "l1");
        Entry long2 = other.set("/a", "l2");
        MergedState state = alice.merge(authorizeA, e0, short1, long1, long2);
        assertThat(eligible(state, "dev_a")).containsExactly(e0.hash(), long1.hash(), long2.hash());
        assertThat(state.rejected()).extracting(Rejection::reason).containsExactly(FORK_DISCARDED);
    }

    @Test
    void twoGenesisEntriesAreTwoRoots() {
        TestIdentity.Device other = devA.fork();
        Entry g1 = devA.set("/a", "g1");
        Entry g2 = other.set("/a", "g2");
        Entry winner = g1.hash().compareTo(g2.hash()) > 0 ? g1 : g2;
        assertThat(eligible(alice.merge(authorizeA, g1, g2), "dev_a")).containsExactly(winner.hash());
    }

    @Test
    void aRevokedDeviceKeepsItsBranchUpToAReachedCutoffPinnedByHash() {
        Entry e0 = devA.set("/a", "0");
        TestIdentity.Device thief = devA.fork();
        Entry e1 = devA.set("/a", "1");
        Entry e2 = devA.set("/a", "2");
        Entry stolen1 = thief.set("/a", "stolen1");
        Entry stolen2 = thief.set("/a", "stolen2");
        AuthorityRecord revoke = alice.revoke("dev_a", new Cutoff(1, e1.hash()));
        MergedState state = alice.merge(authorizeA, revoke, e0, e1, e2, stolen1, stolen2);
        assertThat(eligible(state, "dev_a")).containsExactly(e0.hash(), e1.hash());
        assertThat(device(state, "dev_a").status()).isEqualTo(DeviceView.Status.REVOKED);
        assertThat(device(state, "dev_a").head()).isEqualTo(Head.of(e1));
        assertThat(state.rejected()).extracting(Rejection::entryHash, Rejection::reason).containsExactlyInAnyOrder(
                tuple(e2.hash(), REVOKED_DEVICE), tuple(stolen1.hash(), FORK_DISCARDED), tuple(stolen2.hash(), REVOKED_DEVICE));
    }

    @Test
    void untilTheCutoffEntryArrivesEverythingAtOrBelowItIsPending() {
        Entry e0 = devA.set("/a", "0");
        Entry e1 = devA.set("/a", "1");
        Entry e2 = devA.set("/a", "2");
        AuthorityRecord revoke = alice.revoke("dev_a", new Cutoff(1, e1.hash()));
        MergedState state = alice.merge(authorizeA, revoke, e0, e2);
        assertThat(eligible(state, "dev_a")).isEmpty();
        assertThat(device(state, "dev_a").head()).isNull();
        assertThat(state.rejected()).extracting(Rejection::entryHash, Rejection::reason).containsExactlyInAnyOrder(
                tuple(e0.hash(), PENDING), tuple(e2.hash(), REVOKED_DEVICE));
    }

    @Test
    void aCutoffNamingAHashAtAnotherSequenceIsNeverReached() {
        Entry e0 = devA.set("/a", "0");
        Entry e1 = devA.set("/a", "1");
        AuthorityRecord revoke = alice.revoke("dev_a", new Cutoff(0, e1.hash()));
        MergedState state = alice.merge(authorizeA, revoke, e0, e1);
        assertThat(eligible(state, "dev_a")).isEmpty();
        assertThat(state.rejected()).extracting(Rejection::reason).containsExactlyInAnyOrder(PENDING, REVOKED_DEVICE);
    }

    @Test
    void aRevocationWithoutCutoffMakesEveryVerifiedEntryRevoked() {
        Entry e0 = devA.set("/a", "0");
        Entry e1 = devA.set("/a", "1");
        AuthorityRecord revoke = alice.revoke("dev_a", null);
        MergedState state = alice.merge(authorizeA, revoke, e0, e1);
        assertThat(state.singletons()).isEmpty();
        assertThat(state.rejected()).extracting(Rejection::reason).containsExactly(REVOKED_DEVICE, REVOKED_DEVICE);
    }

    @Test
    void everyBrokenEntryRuleIsAnInvalidEntryWithItsOwnDefect() {
        Entry good = devA.set("/a", "0");
        EntryBody b = good.body();
        record Case(Defect defect, EntryBody body) {}
        List<Case> cases = List.of(
                new Case(Defect.WRONG_RECORD_TYPE, new EntryBody("jolt.other", 1, b.identity(), "dev_a", 0, null, b.operation(), 1, List.of())),
                new Case(Defect.WRONG_VERSION, new EntryBody(b.recordType(), 2, b.identity(), "dev_a", 0, null, b.operation(), 1, List.of())),
                new Case(Defect.MALFORMED_IDENTITY, new EntryBody(b.recordType(), 1, "jolt1nope", "dev_a", 0, null, b.operation(), 1, List.of())),
                new Case(Defect.IDENTITY_MISMATCH, new EntryBody(b.recordType(), 1, TestIdentity.named("bob").id(), "dev_a", 0, null, b.operation(), 1, List.of())),
                new Case(Defect.BAD_DEVICE_ID, new EntryBody(b.recordType(), 1, b.identity(), "Dev_A", 0, null, b.operation(), 1, List.of())),
                new Case(Defect.NON_CANONICAL_PATH, new EntryBody(b.recordType(), 1, b.identity(), "dev_a", 0, null, new Operation.TombstonePath("/a/"), 1, List.of())),
                new Case(Defect.BAD_CONTENT_ID, new EntryBody(b.recordType(), 1, b.identity(), "dev_a", 0, null,
                        new Operation.SetPath("/a", "QmNotACidV1", Operation.Mode.SINGLETON), 1, List.of())),
                new Case(Defect.PREVIOUS_HASH_AT_GENESIS, new EntryBody(b.recordType(), 1, b.identity(), "dev_a", 0, good.hash(), b.operation(), 1, List.of())),
                new Case(Defect.MISSING_PREVIOUS_HASH, new EntryBody(b.recordType(), 1, b.identity(), "dev_a", 1, null, b.operation(), 1, List.of())),
                new Case(Defect.NON_CANONICAL_HEADS, new EntryBody(b.recordType(), 1, b.identity(), "dev_a", 0, null, b.operation(), 1,
                        List.of(good.hash(), good.hash()))));
        for (Case c : cases) {
            Entry entry = Entry.of(c.body(), devA.key().sign(c.body().canonicalBytes()));
            MergedState state = alice.merge(authorizeA, entry);
            assertThat(state.rejected()).as(c.defect().name())
                    .extracting(Rejection::entryHash, Rejection::reason, Rejection::defect)
                    .containsExactly(tuple(entry.hash(), INVALID_ENTRY, c.defect()));
        }
    }

    @Test
    void anUnreadableRecordKeepsOnlyTheFieldsThatCouldBeRead() {
        EntryInput unreadable = new EntryInput.Unreadable(null, "dev_a", null, Defect.UNREADABLE_FIELD, "device_sequence: -1",
                Hash.blake3(new byte[] {42}));
        assertThat(alice.merge(authorizeA, unreadable).rejected()).containsExactly(
                new Rejection(null, "dev_a", null, INVALID_ENTRY, Defect.UNREADABLE_FIELD));
    }
}
