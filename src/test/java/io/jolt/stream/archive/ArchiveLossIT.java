package io.jolt.stream.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.ArchiveLoss;
import io.jolt.stream.avro.ArchiveLossKind;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.kafka.JoltConfig;
import io.jolt.stream.kafka.JoltTopologyTest;
import io.jolt.stream.kafka.Topics;
import io.jolt.stream.kafka.VectorRecords;
import io.jolt.stream.kafka.serde.ConfluentAvroSerde;
import io.jolt.stream.kafka.serde.InMemorySchemaRegistry;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
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
        InMemorySchemaRegistry registry = InMemorySchemaRegistry.seeded();
        List<VectorRecords> records = VectorRecords.of("simple", registry);
        JoltConfig config = harness.config("jolt-it-loss", StreamHarness.tempStateDir("loss"), 1);
        long lost;
        try (var service = harness.start(config, registry); var admin = broker.admin()) {
            Map<ConfigResource, Collection<AlterConfigOp>> tiny = Map.of(new ConfigResource(ConfigResource.Type.TOPIC, Topics.ARCHIVE),
                    List.of(new AlterConfigOp(new ConfigEntry("max.message.bytes", "64"), AlterConfigOp.OpType.SET)));
            admin.incrementalAlterConfigs(tiny).all().get(30, TimeUnit.SECONDS);
            Thread.sleep(1000);
            harness.produce(records);
            harness.awaitProcessed("jolt-it-loss", Duration.ofSeconds(60));
            service.bolt().flush();
            lost = service.bolt().lost();
        }

        Map<String, StateChange> table = new TreeMap<>();
        harness.readAll(Topics.STATE, new ByteArrayDeserializer(), new ConfluentAvroSerde<StateChange>(registry, StateChange.getClassSchema()))
                .forEach(r -> table.put(r.value().getIdentity() + "|" + r.value().getPath(), r.value()));
        assertThat(JoltTopologyTest.liveTable(table)).as("the live side is complete").isEqualTo(JoltTopologyTest.expectedTable("simple"));

        assertThat(harness.readAll(Topics.ARCHIVE, new StringDeserializer(), new ByteArrayDeserializer())).isEmpty();
        List<ArchiveLoss> losses = harness.readAll(KafkaBolt.LOSSES, new StringDeserializer(),
                new ConfluentAvroSerde<ArchiveLoss>(registry, ArchiveLoss.getClassSchema())).stream().map(r -> r.value()).toList();
        Set<String> named = new HashSet<>();
        for (ArchiveLoss loss : losses) {
            assertThat(loss.getKind()).isEqualTo(ArchiveLossKind.LOST);
            assertThat(loss.getSourceTopic()).isEqualTo(Topics.ENTRIES);
            assertThat(loss.getError()).containsIgnoringCase("large");
            named.add(loss.getIdentity() + "/" + loss.getDeviceId() + "#" + loss.getDeviceSequence() + ":" + Hex.encode(loss.getEntryHash().bytes()));
        }
        Set<String> eligible = new HashSet<>();
        for (var identity : new com.fasterxml.jackson.databind.ObjectMapper().readTree(Vectors.expected("simple").toFile())) {
            for (var device : identity.get("devices")) {
                for (VectorRecords r : records) {
                    if (r.record() instanceof io.jolt.stream.protocol.Entry e && e.deviceId().equals(device.get("device_id").asText())
                            && e.body().identity().equals(identity.get("identity").asText())
                            && Long.compareUnsigned(e.sequence(), device.get("head_sequence").asLong()) <= 0) {
                        eligible.add(e.body().identity() + "/" + e.deviceId() + "#" + e.sequence() + ":" + e.hash().hex());
                    }
                }
            }
        }
        assertThat(named).as("the losses name exactly the eligible entries the archive misses").isEqualTo(eligible);
        assertThat(lost).isEqualTo(losses.size());
    }
}
