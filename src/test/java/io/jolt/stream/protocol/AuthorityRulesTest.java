package io.jolt.stream.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** PROTOCOL §3: given authority records, expect the devices in force. */
class AuthorityRulesTest {
    final TestIdentity alice = TestIdentity.named("alice");

    static List<String> devices(Authority authority) {
        return authority.devices().stream().map(d -> d.deviceId() + ":" + d.status()).toList();
    }

    @Test
    void authorizedDevicesAreActiveWhateverTheArrivalOrder() {
        AuthorityRecord a = alice.authorize("dev_a");
        AuthorityRecord b = alice.authorize("dev_b");
        assertThat(devices(Authority.verify(alice.id(), List.of(b, a), SignatureCheck.DEFINITION))).containsExactly("dev_a:ACTIVE", "dev_b:ACTIVE");
    }

    @Test
    void aRecordForAnotherIdentityOrWithABadSignatureCountsForNothing() {
        AuthorityRecord a = alice.authorize("dev_a");
        byte[] forged = a.signature();
        forged[0] ^= 1;
        AuthorityRecord badSignature = AuthorityRecord.of(a.body(), forged);
        assertThat(Authority.verify(alice.id(), List.of(badSignature), SignatureCheck.DEFINITION).isEmpty()).isTrue();
        assertThat(Authority.verify(TestIdentity.named("bob").id(), List.of(a), SignatureCheck.DEFINITION).isEmpty()).isTrue();
    }

    @Test
    void aRootKeyThatIsNotUsableHasNoValidRecord() {
        byte[] smallOrder = new byte[32];
        smallOrder[0] = 1; // the identity point: accepts forged signatures under lax verifiers
        String identity = IdentityId.derive(smallOrder);
        AuthorityBody body = new AuthorityBody(AuthorityBody.RECORD_TYPE, 1, identity, smallOrder, 0, null,
                new AuthorityAction.Authorize("dev_a", TestIdentity.key("k").publicKeyBytes()), 0);
        byte[] signature = new byte[64];
        signature[0] = 1; // R = identity, S = 0: valid for A = identity under cofactored or lax checks
        assertThat(Authority.verify(identity, List.of(AuthorityRecord.of(body, signature)), SignatureCheck.DEFINITION).isEmpty()).isTrue();
    }

    @Test
    void aSecondAuthorizeOfOneDeviceEndsItsBranch() {
        AuthorityRecord a = alice.authorize("dev_a");
        AuthorityRecord again = alice.authorize("dev_a");
        AuthorityRecord b = alice.authorize("dev_b");
        Authority authority = Authority.verify(alice.id(), List.of(a, again, b), SignatureCheck.DEFINITION);
        assertThat(devices(authority)).containsExactly("dev_a:ACTIVE");
        assertThat(authority.chain()).containsExactly(a);
    }

    @Test
    void authorizingAnUnusableDeviceKeyEndsItsBranch() {
        AuthorityRecord a = alice.authorize("dev_a");
        byte[] smallOrder = new byte[32];
        smallOrder[0] = 1;
        AuthorityRecord bad = alice.authority(new AuthorityAction.Authorize("dev_x", smallOrder));
        AuthorityRecord b = alice.authorize("dev_b");
        assertThat(devices(Authority.verify(alice.id(), List.of(a, bad, b), SignatureCheck.DEFINITION))).containsExactly("dev_a:ACTIVE");
    }

    @Test
    void revokingADeviceThatIsNotActiveEndsItsBranch() {
        AuthorityRecord a = alice.authorize("dev_a");
        AuthorityRecord revokeUnknown = alice.revoke("dev_zz", null);
        AuthorityRecord b = alice.authorize("dev_b");
        assertThat(devices(Authority.verify(alice.id(), List.of(a, revokeUnknown, b), SignatureCheck.DEFINITION))).containsExactly("dev_a:ACTIVE");
    }

    @Test
    void revocationIsFinalAndKeepsItsCutoff() {
        AuthorityRecord a = alice.authorize("dev_a");
        Cutoff cutoff = new Cutoff(3, Hash.blake3(new byte[] {1}));
        AuthorityRecord revoke = alice.revoke("dev_a", cutoff);
        AuthorityRecord revokeAgain = alice.revoke("dev_a", null);
        Authority authority = Authority.verify(alice.id(), List.of(a, revoke, revokeAgain), SignatureCheck.DEFINITION);
        assertThat(authority.device("dev_a").orElseThrow().status()).isEqualTo(DeviceAuthority.Status.REVOKED);
        assertThat(authority.device("dev_a").orElseThrow().cutoff()).isEqualTo(cutoff);
        assertThat(authority.chain()).containsExactly(a, revoke);
    }

    @Test
    void aRecordWhosePredecessorIsMissingDoesNotCount() {
        AuthorityRecord a = alice.authorize("dev_a");
        alice.authorize("dev_b"); // never received
        AuthorityRecord c = alice.authorize("dev_c");
        assertThat(devices(Authority.verify(alice.id(), List.of(a, c), SignatureCheck.DEFINITION))).containsExactly("dev_a:ACTIVE");
    }

    @Test
    void theLongestValidBranchWins() {
        AuthorityRecord root = alice.authorize("dev_a");
        AuthorityRecord shortBranch = alice.authorize("dev_b");
        alice.rewindAuthorityTo(root);
        AuthorityRecord long1 = alice.authorize("dev_c");
        AuthorityRecord long2 = alice.authorize("dev_d");
        Authority authority = Authority.verify(alice.id(), List.of(shortBranch, long2, root, long1), SignatureCheck.DEFINITION);
        assertThat(devices(authority)).containsExactly("dev_a:ACTIVE", "dev_c:ACTIVE", "dev_d:ACTIVE");
        assertThat(authority.offBranch()).containsExactly(shortBranch);
    }

    @Test
    void equalLengthBranchesAreDecidedByTheGreaterFinalRecordHash() {
        AuthorityRecord root = alice.authorize("dev_a");
        AuthorityRecord left = alice.authorize("dev_b");
        alice.rewindAuthorityTo(root);
        AuthorityRecord right = alice.authorize("dev_c");
        AuthorityRecord winner = left.hash().compareTo(right.hash()) > 0 ? left : right;
        Authority authority = Authority.verify(alice.id(), List.of(right, root, left), SignatureCheck.DEFINITION);
        assertThat(authority.chain()).containsExactly(root, winner);
    }

    @Test
    void twoGenesisRecordsAreAForkOfRoots() {
        AuthorityRecord first = alice.authorize("dev_a");
        alice.rewindAuthorityToGenesis();
        AuthorityRecord second = alice.authorize("dev_b");
        AuthorityRecord winner = first.hash().compareTo(second.hash()) > 0 ? first : second;
        assertThat(Authority.verify(alice.id(), List.of(first, second), SignatureCheck.DEFINITION).chain()).containsExactly(winner);
    }

    @Test
    void aBrokenLongerBranchLosesToAShorterValidOne() {
        AuthorityRecord root = alice.authorize("dev_a");
        AuthorityRecord valid = alice.authorize("dev_b");
        alice.rewindAuthorityTo(root);
        AuthorityRecord broken = alice.authorize("dev_a"); // breaks: dev_a seen before
        AuthorityRecord underBroken1 = alice.authorize("dev_c");
        AuthorityRecord underBroken2 = alice.authorize("dev_d");
        Authority authority = Authority.verify(alice.id(), List.of(root, valid, broken, underBroken1, underBroken2), SignatureCheck.DEFINITION);
        assertThat(authority.chain()).containsExactly(root, valid);
        assertThat(Arrays.asList(broken, underBroken1, underBroken2)).doesNotContainAnyElementsOf(authority.chain());
    }

    @Test
    void aForkIsReportedAtEachSequenceWithCompetingRecordsNamingTheChosenOne() {
        AuthorityRecord root = alice.authorize("dev_a");
        AuthorityRecord shortBranch = alice.authorize("dev_b");
        alice.rewindAuthorityTo(root);
        AuthorityRecord long1 = alice.authorize("dev_c");
        AuthorityRecord long2 = alice.authorize("dev_d");
        Authority authority = Authority.verify(alice.id(), List.of(shortBranch, long2, root, long1), SignatureCheck.DEFINITION);
        assertThat(authority.forks()).containsExactly(new AuthorityFork(1, long1.hash(),
                Stream.of(shortBranch.hash(), long1.hash()).sorted().toList()));
    }

    @Test
    void aSingleChainHasNoForks() {
        AuthorityRecord root = alice.authorize("dev_a");
        AuthorityRecord next = alice.authorize("dev_b");
        assertThat(Authority.verify(alice.id(), List.of(next, root), SignatureCheck.DEFINITION).forks()).isEmpty();
    }
}
