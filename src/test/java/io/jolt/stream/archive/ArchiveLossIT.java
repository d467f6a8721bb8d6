package io.jolt.stream.archive;

import static io.jolt.stream.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.ArchiveLoss;
import io.jolt.stream.avro.ArchiveLossKind;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.processor.MergedTable;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.Uint64;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OutputAudit;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fault injection: every archive write fails (the archive's max.message.bytes made tiny) while
 * input keeps flowing. The live outputs stay complete and correct, and the loss records name
 * exactly the dots, entry hashes and source offsets the archive is missing.
 */
@ExtendWith(RealKafka.class)
class ArchiveLossIT {
    @Test
    void failedArchiveWritesAreReportedByNameWhileTheLiveSideStaysComplete(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        List<VectorRecords> records = VectorRecords.of("simple", registry);
        JoltConfig config = harness.config("jolt-it-loss", StreamHarness.tempStateDir("loss"), 1);
        long lost;
        List<RecordMetadata> produced;
        try (var service = harness.start(config, registry); var admin = broker.admin()) {
            Map<ConfigResource, Collection<AlterConfigOp>> tiny = Map.of(new ConfigResource(ConfigResource.Type.TOPIC, Topics.ARCHIVE),
                    List.of(new AlterConfigOp(new ConfigEntry("max.message.bytes", "64"), AlterConfigOp.OpType.SET)));
            admin.incrementalAlterConfigs(tiny).all().get(30, TimeUnit.SECONDS);
            Thread.sleep(1000);
            produced = harness.produce(records);
            harness.awaitProcessed("jolt-it-loss", Duration.ofSeconds(60));
            service.bolt().flush();
            lost = service.bolt().lost();
        }

        assertThat(harness.stateTable(registry)).as("the live side is complete").isEqualTo(MergedTable.expected("simple"));

        assertThat(harness.readAll(Topics.ARCHIVE, new StringDeserializer(), new ByteArrayDeserializer())).isEmpty();
        List<ArchiveLoss> losses = harness.readAll(Topics.ARCHIVE_LOSSES, new StringDeserializer(),
                new ConfluentAvroSerde<ArchiveLoss>(registry, ArchiveLoss.getClassSchema())).stream().map(r -> r.value()).toList();
        Set<String> named = new HashSet<>();
        for (ArchiveLoss loss : losses) {
            assertThat(loss.getKind()).isEqualTo(ArchiveLossKind.LOST);
            assertThat(loss.getSourceTopic()).isEqualTo(Topics.ENTRIES);
            assertThat(loss.getError()).containsIgnoringCase("large");
            named.add(loss.getIdentity() + "/" + loss.getDeviceId() + "#" + loss.getDeviceSequence() + ":" + Hex.encode(loss.getEntryHash().bytes())
                    + "@" + loss.getSourcePartition() + ":" + loss.getSourceOffset());
        }
        Set<String> eligible = new HashSet<>();
        for (var identity : new com.fasterxml.jackson.databind.ObjectMapper().readTree(Vectors.expected("simple").toFile())) {
            for (var device : identity.get("devices")) {
                for (int i = 0; i < records.size(); i++) {
                    if (records.get(i).record() instanceof io.jolt.stream.protocol.Entry e && e.deviceId().equals(device.get("device_id").asText())
                            && e.body().identity().equals(identity.get("identity").asText())
                            && Long.compareUnsigned(e.sequence(), device.get("head_sequence").asLong()) <= 0) {
                        eligible.add(e.body().identity() + "/" + e.deviceId() + "#" + e.sequence() + ":" + e.hash().hex()
                                + "@" + produced.get(i).partition() + ":" + produced.get(i).offset());
                    }
                }
            }
        }
        assertThat(named).as("the losses name exactly the eligible entries the archive misses, with their source offsets").isNotEmpty()
                .isEqualTo(eligible);
        assertThat(lost).isEqualTo(losses.size());
    }

    /**
     * The archive asks for the promise of two in-sync replicas (replication 2,
     * min.insync.replicas 2) and one of the two brokers stops: every operation is still written
     * (to the leader alone) and reported as DEGRADED_DURABILITY, never as lost; when the broker
     * is back, every one of them is in the archive. (On one broker
     * this cannot be staged: Kafka 4 caps a topic's min.insync.replicas at its replication
     * factor, so a topic asking for more than it has is simply served.)
     */
    @Test
    void writesWithoutTheReplicasPromiseAreReportedAsDegradedNotLost() throws Exception {
        try (KafkaBroker cluster = KafkaBroker.start(2)) {
            StreamHarness harness = new StreamHarness(cluster);
            InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
            List<VectorRecords> records = VectorRecords.of("simple", registry);
            JoltConfig config = harness.config("jolt-it-degraded", StreamHarness.tempStateDir("degraded"), 1)
                    .with(JoltConfig.TOPIC_REPLICATION, "2")
                    .with("replication.factor", "2"); // the changelogs too: the service must outlive a broker
            long written;
            long lost;
            try (var service = harness.start(config, registry); var admin = cluster.admin()) {
                Map<ConfigResource, Collection<AlterConfigOp>> twoReplicas = Map.of(new ConfigResource(ConfigResource.Type.TOPIC, Topics.ARCHIVE),
                        List.of(new AlterConfigOp(new ConfigEntry("min.insync.replicas", "2"), AlterConfigOp.OpType.SET)));
                admin.incrementalAlterConfigs(twoReplicas).all().get(30, TimeUnit.SECONDS);
                cluster.stopNode(2);
                harness.produce(records);
                harness.awaitProcessed("jolt-it-degraded", Duration.ofSeconds(90));
                service.bolt().flush();
                written = service.bolt().written();
                lost = service.bolt().lost();
            }
            // Kafka 4 keeps the high watermark below min.insync.replicas in-sync copies: the
            // degraded writes are in the leader's log, readable once the replica is back in sync.
            cluster.restartNode(2);

            Set<String> eligible = eligibleDots(records);
            List<String> archived = await("every entry eligible in the merge is in the archive").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500)).until(() -> archivedDots(harness, registry), dots -> dots.containsAll(eligible));
            List<ArchiveLoss> reports = harness.readAll(Topics.ARCHIVE_LOSSES, new StringDeserializer(),
                    new ConfluentAvroSerde<ArchiveLoss>(registry, ArchiveLoss.getClassSchema())).stream().map(r -> r.value()).toList();
            assertThat(lost).isZero();
            assertThat(eligible).as("the vectors have eligible entries").isNotEmpty();
            assertThat(new HashSet<>(archived)).as("the archive holds the merge's eligible entries, and nothing else").isEqualTo(eligible);
            assertThat(written).as("the bolt counted what the archive holds").isEqualTo(archived.size());
            assertThat(reports).hasSize(archived.size()).allSatisfy(r -> {
                assertThat(r.getKind()).isEqualTo(ArchiveLossKind.DEGRADED_DURABILITY);
                assertThat(r.getError()).contains("NotEnoughReplicas");
            });
            assertThat(reports.stream().map(r -> OutputAudit.dot(r.getIdentity(), r.getDeviceId(), Uint64.unsigned(r.getDeviceSequence(),
                    "device_sequence"), r.getEntryHash().bytes())).collect(Collectors.toSet())).as("each archived entry reported by name")
                    .isEqualTo(eligible);
        }
    }

    /**
     * The literal staging, "min.insync.replicas above the replicas", on one broker: Kafka 4 caps
     * the requirement at the replication factor, so the writes keep their promise. Nothing is
     * reported lost or degraded, and everything is in the archive.
     */
    @Test
    void aMinInsyncAboveTheReplicationFactorIsCappedByKafkaAndNothingIsLost(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        JoltConfig config = harness.config("jolt-it-capped", StreamHarness.tempStateDir("capped"), 1);
        try (var service = harness.start(config, registry); var admin = broker.admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, Topics.ARCHIVE),
                    List.of(new AlterConfigOp(new ConfigEntry("min.insync.replicas", "2"), AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
            Thread.sleep(1000);
            List<VectorRecords> records = VectorRecords.of("simple", registry);
            harness.produce(records);
            harness.awaitProcessed("jolt-it-capped", Duration.ofSeconds(60));
            service.bolt().flush();
            assertThat(service.bolt().lost()).isZero();
            assertThat(service.bolt().degraded()).isZero();
            List<String> archived = archivedDots(harness, registry);
            assertThat(eligibleDots(records)).as("the vectors have eligible entries").isNotEmpty();
            assertThat(new HashSet<>(archived)).as("the archive holds the merge's eligible entries, and nothing else").isEqualTo(eligibleDots(records));
            assertThat(archived).as("the bolt counted what the archive holds").hasSize((int) service.bolt().written());
        }
    }

    /** The dots of the operations in jolt.archive.v2, read from the topic itself (not the bolt's count of what it wrote). */
    private static List<String> archivedDots(StreamHarness harness, SchemaRegistry registry) {
        return harness.readAll(Topics.ARCHIVE, new StringDeserializer(), new ConfluentAvroSerde<ArchiveRecord>(registry, ArchiveRecord.getClassSchema()))
                .stream().map(ConsumerRecord::value).map(a -> OutputAudit.dot(a.getIdentity(), a.getDeviceId(),
                        Uint64.unsigned(a.getDeviceSequence(), "device_sequence"), a.getEntryHash().bytes())).toList();
    }

    /** The dots of the entries eligible in the protocol core's merge of the records. */
    private static Set<String> eligibleDots(List<VectorRecords> records) {
        return OutputAudit.eligibleDots(records.stream().map(VectorRecords::record).toList());
    }
}
