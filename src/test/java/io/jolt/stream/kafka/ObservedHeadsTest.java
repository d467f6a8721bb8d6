package io.jolt.stream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.PathState;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.kafka.serde.InMemorySchemaRegistry;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.protocol.json.RecordJson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PROTOCOL §6 on the hot path: an entry whose hash an eligible candidate of the path observed is
 * superseded, also when it arrives after the entry that observed it, and also when both arrive
 * as the next entry of their device (the incremental path, no re-evaluation).
 */
class ObservedHeadsTest {
    private final TestIdentity alice = TestIdentity.named("observed");
    private final TestIdentity.Device a = alice.device("dev_a");
    private final TestIdentity.Device b = alice.device("dev_b");
    private final AuthorityRecord authorizeA = alice.authorize("dev_a");
    private final AuthorityRecord authorizeB = alice.authorize("dev_b");

    @Test
    void anEntryObservedBeforeItArrivesNeverBecomesAnActiveHeadEvenAfterItsObserverWasSuperseded() {
        Entry a0 = a.set("/status", "one");
        Entry a1 = a.set("/status", "two");
        Entry b0 = b.set("/status", "three", a1.hash()); // dev_b saw "two" elsewhere, and wrote over it
        Entry b1 = b.set("/status", "four"); // and then over its own value: "three" is no longer a head to compare with

        StateChange status = finalStatus(List.of(authorizeA, authorizeB, a0, b0, b1, a1));

        assertThat(status.getState()).isEqualTo(PathState.PRESENT);
        assertThat(status.getContentId()).isEqualTo(TestIdentity.cid("four"));
        assertThat(status.getConflictCount()).as("two, observed by three, is no concurrent head").isZero();
        assertThat(status.getHead().getDeviceId()).isEqualTo("dev_b");
    }

    @Test
    void anEntryObservingTheActiveHeadsSupersedesThemWhicheverArrivesFirstLater() {
        Entry a0 = a.set("/status", "one");
        Entry b0 = b.set("/status", "two", a0.hash());
        Entry a1 = a.set("/status", "three", b0.hash());

        for (List<Object> order : List.of(List.<Object>of(authorizeA, authorizeB, a0, b0, a1),
                List.<Object>of(authorizeA, authorizeB, a0, a1, b0))) {
            StateChange status = finalStatus(order);
            assertThat(status.getContentId()).as(order.toString()).isEqualTo(TestIdentity.cid("three"));
            assertThat(status.getConflictCount()).as(order.toString()).isZero();
        }
    }

    private StateChange finalStatus(List<Object> records) {
        JoltTopologyTest.Outputs out = JoltTopologyTest.run(VectorRecords.ofRecords(records, InMemorySchemaRegistry.seeded()));
        assertThat(JoltTopologyTest.liveTable(out.state())).isEqualTo(HotPathEquivalenceProperties.merged(records.stream()
                .map(r -> (r instanceof AuthorityRecord x ? RecordJson.write(x) : RecordJson.write((Entry) r)).getBytes(StandardCharsets.UTF_8))
                .toList()));
        return out.state().get(alice.id() + "|/status");
    }
}
