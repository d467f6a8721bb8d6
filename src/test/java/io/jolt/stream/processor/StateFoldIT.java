package io.jolt.stream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.StateChange;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The state topic folds a path's rewrites within a commit: fifty successive values of one path,
 * processed within one commit interval, are one state change (or a few, where the records straddle
 * commits), the last of them the final value. TopologyTestDriver commits after every record, so
 * only a broker shows the fold.
 */
@ExtendWith(RealKafka.class)
class StateFoldIT {
    static final String APPLICATION = "jolt-it-state-fold";

    @Test
    void fiftyRewritesOfOnePathWithinACommitAreOneStateChange(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        TestIdentity alice = TestIdentity.named("fold");
        AuthorityRecord authorize = alice.authorize("dev_a");
        TestIdentity.Device dev = alice.device("dev_a");
        List<Entry> rewrites = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            rewrites.add(dev.set("/profile", "v" + i));
        }

        JoltConfig config = harness.config(APPLICATION, StreamHarness.tempStateDir("state-fold"), 1)
                .with(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "10000");
        try (var service = harness.start(config, registry)) {
            harness.produce(VectorRecords.ofRecords(List.of(authorize), registry));
            harness.produce(VectorRecords.ofRecords(rewrites, registry));
            harness.awaitProcessed(APPLICATION, Duration.ofSeconds(60));
        }

        assertChangelogsAreZstdAndOutputsAsProduced(broker);
        List<StateChange> state = harness.readAll(Topics.STATE, new ByteArrayDeserializer(),
                new ConfluentAvroSerde<StateChange>(registry, StateChange.getClassSchema())).stream().map(r -> r.value()).toList();
        System.out.printf("[state fold] 50 rewrites of one path: %d state change(s)%n", state.size());
        assertThat(state).as("one change per commit that rewrote the path, not one per rewrite").hasSizeLessThanOrEqualTo(5);
        assertThat(state).last().satisfies(change -> {
            assertThat(change.getContentId()).isEqualTo(TestIdentity.cid("v49"));
            assertThat(change.getHead().getDeviceSequence()).isEqualByComparingTo("49");
        });
    }

    /**
     * The changelogs, which only Kafka Streams reads, are kept with zstd (about a sixth fewer bytes
     * on the broker than LZ4, performance.md); the outputs stay as their producer compressed them,
     * LZ4, which readers in other languages can decode.
     */
    private static void assertChangelogsAreZstdAndOutputsAsProduced(KafkaBroker broker) throws Exception {
        try (Admin admin = broker.admin()) {
            List<ConfigResource> topics = List.of(new ConfigResource(ConfigResource.Type.TOPIC, APPLICATION + "-jolt-entries-changelog"),
                    new ConfigResource(ConfigResource.Type.TOPIC, APPLICATION + "-jolt-heads-changelog"),
                    new ConfigResource(ConfigResource.Type.TOPIC, Topics.STATE));
            Map<ConfigResource, Config> configs = admin.describeConfigs(topics).all().get(30, TimeUnit.SECONDS);
            assertThat(configs.get(topics.get(0)).get(TopicConfig.COMPRESSION_TYPE_CONFIG).value()).isEqualTo("zstd");
            assertThat(configs.get(topics.get(1)).get(TopicConfig.COMPRESSION_TYPE_CONFIG).value()).isEqualTo("zstd");
            assertThat(configs.get(topics.get(2)).get(TopicConfig.COMPRESSION_TYPE_CONFIG).value()).isEqualTo("producer");
        }
    }
}
