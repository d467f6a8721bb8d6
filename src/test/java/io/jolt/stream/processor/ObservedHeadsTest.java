package io.jolt.stream.processor;

import static io.jolt.stream.processor.TopologyFixture.topology;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Head;
import io.jolt.stream.protocol.Resolution;
import io.jolt.stream.protocol.TestIdentity;
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

        List<Object> records = List.of(authorizeA, authorizeB, a0, b0, b1, a1);

        TopologyFixture.Outcome out = topology().given(records).whenProcessed();

        assertThat(out.resolution(alice.id(), "/status")).as("two, observed by three, is no concurrent head")
                .isEqualTo(new Resolution.Present("/status", TestIdentity.cid("four"), Head.of(b1), 0));
        assertThat(out.state()).isEqualTo(MergedTable.of(records));
    }

    @Test
    void anEntryObservingTheActiveHeadsSupersedesThemWhicheverArrivesFirstLater() {
        Entry a0 = a.set("/status", "one");
        Entry b0 = b.set("/status", "two", a0.hash());
        Entry a1 = a.set("/status", "three", b0.hash());

        for (List<Object> order : List.of(List.<Object>of(authorizeA, authorizeB, a0, b0, a1),
                List.<Object>of(authorizeA, authorizeB, a0, a1, b0))) {
            TopologyFixture.Outcome out = topology().given(order).whenProcessed();

            assertThat(out.resolution(alice.id(), "/status")).as(order.toString())
                    .isEqualTo(new Resolution.Present("/status", TestIdentity.cid("three"), Head.of(a1), 0));
            assertThat(out.state()).as(order.toString()).isEqualTo(MergedTable.of(order));
        }
    }
}
