package io.jolt.stream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.StateChange;
import io.jolt.stream.protocol.OrderIndependenceProperties;
import io.jolt.stream.protocol.Resolution;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The service on a real broker: the mixed scenarios in several random orders, with 1 and with
 * 4 partitions, stopped with a quarter of the input processed and a quarter unprocessed and
 * restarted (with its state dir, and once without it so it restores from the changelogs) always
 * ends in the same state, which is the merge of the set, and read_committed shows no duplicated
 * output.
 */
@ExtendWith(RealKafka.class)
class StreamProcessingIT {
    final InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
    KafkaBroker broker;
    StreamHarness harness;

    @BeforeEach
    void setUp(KafkaBroker broker) {
        this.broker = broker;
        this.harness = new StreamHarness(broker);
    }

    enum Restart { NONE, SAME_STATE_DIR, WIPED_STATE_DIR }

    static List<byte[]> scenario() {
        List<byte[]> lines = new ArrayList<>(Vectors.lines("mixed"));
        for (long seed : new long[] {1, 2, 3, 42}) {
            lines.addAll(OrderIndependenceProperties.GeneratedHistory.lines(seed));
        }
        return lines;
    }

    Map<TopologyFixture.IdentityPath, Resolution> run(List<byte[]> lines, int partitions, Restart restart, String name) throws Exception {
        long t0 = System.nanoTime();
        harness.resetTopics();
        System.out.printf("[%s] topics reset %d ms%n", name, (System.nanoTime() - t0) / 1_000_000);
        List<VectorRecords> records = VectorRecords.of(lines, registry);
        String applicationId = "jolt-it-" + name;
        Path stateDir = StreamHarness.tempStateDir(name);
        JoltConfig config = harness.config(applicationId, stateDir, partitions);
        int quarter = records.size() / 4;
        int half = records.size() / 2;
        var service = harness.start(config, registry);
        System.out.printf("[%s] running %d ms%n", name, (System.nanoTime() - t0) / 1_000_000);
        try {
            harness.produce(records.subList(0, quarter));
            if (restart != Restart.NONE) {
                // A few hundred records leave no time to stop the service in the middle of them from outside: it is
                // paused once it has committed the first quarter, so that the stop finds the second unprocessed.
                harness.awaitProcessed(applicationId, Duration.ofSeconds(60));
                service.streams().pause();
                harness.produce(records.subList(quarter, half));
                service.close();
                TopicReader.Progress atStop = harness.progress(applicationId);
                assertThat(atStop.total() - atStop.processed()).as("records unprocessed at the stop").isEqualTo(half - quarter);
                if (restart == Restart.WIPED_STATE_DIR) {
                    stateDir = StreamHarness.tempStateDir(name + "-wiped");
                    config = harness.config(applicationId, stateDir, partitions);
                }
                System.out.printf("[%s] stopped with %d of %d records unprocessed %d ms%n", name, atStop.total() - atStop.processed(),
                        atStop.total(), (System.nanoTime() - t0) / 1_000_000);
                service = harness.start(config, registry);
                System.out.printf("[%s] restarted %d ms%n", name, (System.nanoTime() - t0) / 1_000_000);
            } else {
                harness.produce(records.subList(quarter, half));
            }
            harness.produce(records.subList(half, records.size()));
            harness.awaitProcessed(applicationId, Duration.ofSeconds(90));
            System.out.printf("[%s] all processed %d ms%n", name, (System.nanoTime() - t0) / 1_000_000);
        } finally {
            service.close();
        }
        System.out.printf("[%s] closed %d ms%n", name, (System.nanoTime() - t0) / 1_000_000);
        List<ConsumerRecord<byte[], StateChange>> state = harness.readAll(Topics.STATE, new ByteArrayDeserializer(),
                new ConfluentAvroSerde<StateChange>(registry, StateChange.getClassSchema()));
        assertNoConsecutiveDuplicates(state);
        return TopologyFixture.table(state.stream().map(ConsumerRecord::value).toList());
    }

    /** A change is emitted once: the same resolution twice in a row for one key would be a duplicate. */
    static void assertNoConsecutiveDuplicates(List<ConsumerRecord<byte[], StateChange>> records) {
        Map<String, StateChange> last = new HashMap<>();
        for (ConsumerRecord<byte[], StateChange> r : records) {
            String key = Arrays.toString(r.key());
            assertThat(r.value()).as("duplicate output for %s/%s", r.value().getIdentity(), r.value().getPath()).isNotEqualTo(last.get(key));
            last.put(key, r.value());
        }
    }

    @Test
    void stateIsTheMergeOfTheSetWhateverTheOrderPartitionsAndRestarts() throws Exception {
        List<byte[]> lines = scenario();
        Map<TopologyFixture.IdentityPath, Resolution> expected = MergedTable.ofLines(lines);
        assertThat(expected).isNotEmpty();
        Random random = new Random(20261202);

        assertThat(run(shuffled(lines, random), 1, Restart.NONE, "p1-a")).as("1 partition, order A").isEqualTo(expected);
        assertThat(run(shuffled(lines, random), 4, Restart.NONE, "p4-b")).as("4 partitions, order B").isEqualTo(expected);
        assertThat(run(shuffled(lines, random), 4, Restart.SAME_STATE_DIR, "p4-restart")).as("restart, same state dir").isEqualTo(expected);
        assertThat(run(shuffled(lines, random), 4, Restart.WIPED_STATE_DIR, "p4-wiped")).as("restart, state restored from changelogs")
                .isEqualTo(expected);
        assertThat(run(shuffled(lines, random), 1, Restart.SAME_STATE_DIR, "p1-restart")).as("1 partition, restart").isEqualTo(expected);
    }

    static List<byte[]> shuffled(List<byte[]> lines, Random random) {
        List<byte[]> copy = new ArrayList<>(lines);
        Collections.shuffle(copy, random);
        return copy;
    }
}
