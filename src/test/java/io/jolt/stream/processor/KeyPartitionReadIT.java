package io.jolt.stream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Reading one key's records reads the one partition the producer sent that key to (the default
 * partitioner's murmur2), as `jolt replay --identity` does on the archive: all of the key's
 * records, and nothing of the other partitions.
 */
@ExtendWith(RealKafka.class)
class KeyPartitionReadIT {
    @Test
    void oneKeysRecordsAreReadFromItsPartitionAlone(KafkaBroker broker) throws Exception {
        String topic = "jolt-it-key-partition";
        try (var admin = broker.admin()) {
            if (!admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic)) {
                admin.createTopics(Set.of(new NewTopic(topic, 4, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
        }
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            records.add(new ProducerRecord<>(topic, "identity-" + (i % 40), new byte[] {(byte) i}));
        }
        List<RecordMetadata> sent = new StreamHarness(broker).produceRaw(records);
        Map<Integer, Integer> perPartition = new HashMap<>();
        sent.forEach(m -> perPartition.merge(m.partition(), 1, Integer::sum));
        int partitionOfKey = sent.get(7).partition(); // where the producer put identity-7

        List<ConsumerRecord<String, byte[]>> read = new ArrayList<>();
        long scanned = TopicReader.readKeyToEnd(broker.bootstrapServers(), topic, "identity-7", new StringDeserializer(),
                new ByteArrayDeserializer(), Duration.ofSeconds(30), read::add);

        assertThat(read).allSatisfy(r -> assertThat(r.partition()).isEqualTo(partitionOfKey));
        assertThat(read.stream().filter(r -> r.key().equals("identity-7"))).hasSize(10);
        assertThat(scanned).as("only the key's partition was read").isEqualTo((long) perPartition.get(partitionOfKey)).isLessThan(400L);
    }
}
