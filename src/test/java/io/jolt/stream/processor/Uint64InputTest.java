package io.jolt.stream.processor;

import static io.jolt.stream.processor.TopologyFixture.topology;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.wire.AvroRecords;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A uint64 arrives as a decimal(20,0); one outside 0..2^64−1 is a typed rejection, and the records around it are merged. */
class Uint64InputTest {
    final TestIdentity alice = TestIdentity.named("alice");
    final AuthorityRecord authorize = alice.authorize("dev_a");
    final TestIdentity.Device devA = alice.device("dev_a");

    @Test
    void aCreatedAtOfTwoToThe64IsAnInvalidEntryAndTheOthersAreMerged() {
        Entry name = devA.set("/profile/name", "Alice");
        DeviceWriterEntry beyond = AvroRecords.entry(devA.set("/profile/city", "Paris"));
        beyond.setCreatedAt(new BigDecimal("18446744073709551616"));

        TopologyFixture.Outcome out = topology().given(authorize, name, onEntriesTopic(beyond)).whenProcessed();

        assertThat(out.rejected()).singleElement().satisfies(r -> {
            assertThat(r.getReason()).isEqualTo(RejectionKind.INVALID_ENTRY);
            assertThat(r.getRule()).isEqualTo("UNREADABLE_FIELD");
            assertThat(r.getDetail()).isEqualTo("created_at 18446744073709551616 is not a uint64");
        });
        assertThat(out.state()).isEqualTo(MergedTable.of(List.of(authorize, name)));
    }

    @Test
    void theGreatestSequenceIsReportedExactly() {
        Entry last = devA.set("/profile/name", "Alice");
        DeviceWriterEntry extreme = AvroRecords.entry(last);
        extreme.setDeviceSequence(new BigDecimal("18446744073709551615"));

        TopologyFixture.Outcome out = topology().given(authorize, onEntriesTopic(extreme)).whenProcessed();

        assertThat(out.rejected()).as("rejected (its body is not what was signed), and reported with the sequence it carried")
                .singleElement().satisfies(r -> assertThat(r.getDeviceSequence()).isEqualByComparingTo("18446744073709551615"));
    }

    private static VectorRecords onEntriesTopic(DeviceWriterEntry avro) {
        byte[] value = new ConfluentAvroSerde<DeviceWriterEntry>(TopicSchemas.seededRegistry(), DeviceWriterEntry.getClassSchema())
                .serialize(Topics.ENTRIES, avro);
        return new VectorRecords(Topics.ENTRIES, avro.getIdentity(), value, avro);
    }
}
