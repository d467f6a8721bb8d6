package io.jolt.stream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryBody;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.AvroRecords;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bad input never stops the pipeline or loses other records: each poison pill lands in
 * jolt.rejected.v2 with its reason, rule and source offset, and the records after it are processed.
 */
@ExtendWith(RealKafka.class)
class PoisonPillIT {
    @Test
    void poisonPillsAreRejectedWithReasonAndOffsetAndTheRecordsAfterThemAreProcessed(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        ConfluentAvroSerde<io.jolt.stream.avro.AuthorityRecord> authoritySerde =
                new ConfluentAvroSerde<>(registry, io.jolt.stream.avro.AuthorityRecord.getClassSchema());
        ConfluentAvroSerde<io.jolt.stream.avro.DeviceWriterEntry> entrySerde =
                new ConfluentAvroSerde<>(registry, io.jolt.stream.avro.DeviceWriterEntry.getClassSchema());

        TestIdentity alice = TestIdentity.named("poison");
        AuthorityRecord authorize = alice.authorize("dev_a");
        TestIdentity.Device dev = alice.device("dev_a");
        Entry first = dev.set("/profile", "v1");
        EntryBody badPathBody = new EntryBody(EntryBody.RECORD_TYPE, 1, alice.id(), "dev_a", 1, first.hash(),
                new Operation.TombstonePath("/profile/"), 5, List.of());
        Entry badPath = Entry.of(badPathBody, dev.key().sign(badPathBody.canonicalBytes()));
        Entry second = dev.set("/profile", "v2");
        byte[] flipped = second.signature();
        flipped[3] ^= 1;
        Entry badSignature = Entry.of(second.body(), flipped);
        Entry third = dev.set("/profile", "v3");

        String id = alice.id();
        byte[] unknownSchemaId = entrySerde.serialize(Topics.ENTRIES, AvroRecords.entry(first)).clone();
        unknownSchemaId[4] = 99;
        List<ProducerRecord<String, byte[]>> input = List.of(
                new ProducerRecord<>(Topics.AUTHORITY, id, authoritySerde.serialize(Topics.AUTHORITY, AvroRecords.authority(authorize))),
                new ProducerRecord<>(Topics.ENTRIES, id, entrySerde.serialize(Topics.ENTRIES, AvroRecords.entry(first))),
                new ProducerRecord<>(Topics.ENTRIES, id, "this is not avro".getBytes(StandardCharsets.UTF_8)),
                new ProducerRecord<>(Topics.ENTRIES, id, unknownSchemaId),
                new ProducerRecord<>(Topics.ENTRIES, id, entrySerde.serialize(Topics.ENTRIES, AvroRecords.entry(badPath))),
                new ProducerRecord<>(Topics.ENTRIES, id, entrySerde.serialize(Topics.ENTRIES, AvroRecords.entry(badSignature))),
                new ProducerRecord<>(Topics.ENTRIES, id, entrySerde.serialize(Topics.ENTRIES, AvroRecords.entry(second))),
                new ProducerRecord<>(Topics.ENTRIES, id, entrySerde.serialize(Topics.ENTRIES, AvroRecords.entry(third))));

        JoltConfig config = harness.config("jolt-it-poison", StreamHarness.tempStateDir("poison"), 1);
        List<RecordMetadata> sent = new java.util.ArrayList<>();
        try (var service = harness.start(config, registry)) {
            // The Authorize first, so that no entry is (transiently) reported as unknown_device.
            sent.addAll(harness.produceRaw(input.subList(0, 1)));
            harness.awaitProcessed("jolt-it-poison", Duration.ofSeconds(60));
            sent.addAll(harness.produceRaw(input.subList(1, input.size())));
            harness.awaitProcessed("jolt-it-poison", Duration.ofSeconds(60));
        }

        List<RejectedRecord> rejected = harness.readAll(Topics.REJECTED, new StringDeserializer(),
                new ConfluentAvroSerde<RejectedRecord>(registry, RejectedRecord.getClassSchema())).stream().map(r -> r.value()).toList();
        Map<Long, RejectedRecord> byOffset = new TreeMap<>();
        rejected.forEach(r -> byOffset.put(r.getSourceOffset(), r));
        assertThat(rejected).hasSize(4).allSatisfy(r -> {
            assertThat(r.getSourceTopic()).isEqualTo(Topics.ENTRIES);
            assertThat(r.getSourcePartition()).isZero();
        });

        RejectedRecord notAvro = byOffset.get(sent.get(2).offset());
        assertThat(notAvro.getReason()).isEqualTo(RejectionKind.UNDECODABLE);
        assertThat(notAvro.getRule()).isEqualTo("NOT_CONFLUENT_WIRE_FORMAT");
        assertThat(StandardCharsets.UTF_8.decode(notAvro.getRawValue()).toString()).isEqualTo("this is not avro");

        RejectedRecord unknownSchema = byOffset.get(sent.get(3).offset());
        assertThat(unknownSchema.getReason()).isEqualTo(RejectionKind.UNDECODABLE);
        assertThat(unknownSchema.getRule()).isEqualTo("UNKNOWN_SCHEMA_ID");
        assertThat(unknownSchema.getRawValue()).isNotNull();

        RejectedRecord invalid = byOffset.get(sent.get(4).offset());
        assertThat(invalid.getReason()).isEqualTo(RejectionKind.INVALID_ENTRY);
        assertThat(invalid.getRule()).isEqualTo("NON_CANONICAL_PATH");

        RejectedRecord forged = byOffset.get(sent.get(5).offset());
        assertThat(forged.getReason()).isEqualTo(RejectionKind.BAD_SIGNATURE);
        assertThat(forged.getDeviceSequence()).isEqualByComparingTo("1");

        List<StateChange> state = harness.readAll(Topics.STATE, new ByteArrayDeserializer(),
                new ConfluentAvroSerde<StateChange>(registry, StateChange.getClassSchema())).stream().map(r -> r.value()).toList();
        assertThat(state).last().satisfies(change -> {
            assertThat(change.getContentId()).isEqualTo(TestIdentity.cid("v3"));
            assertThat(change.getHead().getDeviceSequence()).isEqualByComparingTo("2");
        });
    }
}
