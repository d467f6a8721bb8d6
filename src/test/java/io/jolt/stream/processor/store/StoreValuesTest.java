package io.jolt.stream.processor.store;

import static io.jolt.stream.processor.TopologyFixture.topology;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.processor.TopologyFixture;
import io.jolt.stream.protocol.AppendRecord;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.CanonicalWriter;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.wire.Topics;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * What the entries and appends stores write per entry: no byte the key or another store holds
 * already. Given records, the stores hold them once; values an earlier build wrote read the same.
 */
class StoreValuesTest {
    final TestIdentity alice = TestIdentity.named("store-values");
    final TestIdentity.Device phone = alice.device("dev_phone");
    final AuthorityRecord authorize = alice.authorize("dev_phone");

    @Test
    void aStoredEntryHoldsItsSignatureOnceInItsKey() {
        Entry name = phone.set("/name", "Alice");

        try (TopologyFixture.Running topology = topology().start().when(authorize, name)) {
            KeyValueStore<Bytes, byte[]> entries = topology.store(StoreName.ENTRIES);
            byte[] value = entries.get(Keys.entry(name));

            assertThat(indexOf(value, name.signature())).as("the value repeats no signature").isEqualTo(-1);
            assertThat(value.length).isLessThan(name.wire().length);
            assertThat(topology.stores().stored(alice.id()).inputs()).singleElement()
                    .satisfies(input -> assertThat(((EntryInput.Signed) input).entry().wire()).isEqualTo(name.wire()));
        }
    }

    @Test
    void anAppendRowHoldsOnlyItsContentIdAndEnumeratesAsTheRecord() {
        Entry first = phone.append("/notes", "bafk-first");
        Entry second = phone.append("/notes", "bafk-second");

        try (TopologyFixture.Running topology = topology().start().when(authorize, first, second)) {
            byte[] value = topology.store(StoreName.APPENDS).get(Keys.append(alice.id(), second));

            String contentId = AppendRecord.of(second).contentId();
            assertThat(value.length).as("a format byte and the content id, length first").isEqualTo(1 + 8 + contentId.length());
            assertThat(topology.stores().appends(alice.id(), "/", 10, null).records())
                    .containsExactly(AppendRecord.of(first), AppendRecord.of(second));
        }
    }

    @Test
    void valuesAnEarlierBuildWroteReadTheSame() {
        Entry name = phone.set("/name", "Alice");
        Entry note = phone.append("/notes", "bafk-first");

        try (TopologyFixture.Running topology = topology().start().when(authorize)) {
            // Before the signature left the entries store's values and the entry the appends store's.
            for (Entry e : List.of(name, note)) {
                topology.store(StoreName.ENTRIES).put(Keys.entry(e), new CanonicalWriter().bytes(e.wire()).string(Topics.ENTRIES).uint64(2)
                        .uint64(41).u8(1).toByteArray());
            }
            topology.store(StoreName.APPENDS).put(Keys.append(alice.id(), note), note.wire());

            StoredIdentity stored = topology.stores().stored(alice.id());
            assertThat(stored.byHash()).containsOnlyKeys(name.hash(), note.hash());
            assertThat(stored.byHash().get(name.hash()).wire()).isEqualTo(name.wire());
            assertThat(stored.sources().get(note.hash())).isEqualTo(new Source(Topics.ENTRIES, 2, 41));
            assertThat(stored.archivedOnArrival()).hasSize(2);
            assertThat(topology.stores().appends(alice.id(), "/", 10, null).records()).containsExactly(AppendRecord.of(note));
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }
}
