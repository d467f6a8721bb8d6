package io.jolt.stream.processor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * Closes the bolt's crash window by construction: a stream transaction commits only after every
 * archive operation appended before it is acknowledged by the archive or named on the losses
 * topic. The bolt writes with a producer of its own, outside the transaction (so a failed archive
 * write never aborts the live side); without this barrier the transaction, and with it the input
 * offsets and the stored entries' "archived on arrival", could commit while archive writes were
 * still in flight, and a process killed in that window would lose them unnamed. With it a crash
 * can only repeat an operation (the input is processed again), never drop one: at-least-once,
 * readers deduplicate by dot.
 *
 * <p>The stream threads' producers come from this supplier; each one flushes the bolt in
 * {@code commitTransaction()}, before delegating.
 */
public final class BoltBeforeCommit implements KafkaClientSupplier {
    private final Bolt bolt;

    public BoltBeforeCommit(Bolt bolt) {
        this.bolt = bolt;
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new CommitAfterBolt(new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()), bolt);
    }

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return Admin.create(config);
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return consumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return consumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return consumer(config);
    }

    /** The consumers (and the admin client) are Kafka Streams' defaults. */
    private static Consumer<byte[], byte[]> consumer(Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** A stream thread's producer whose commit waits for the bolt; everything else is the producer's own. */
    static final class CommitAfterBolt implements Producer<byte[], byte[]> {
        private final Producer<byte[], byte[]> producer;
        private final Bolt bolt;

        CommitAfterBolt(Producer<byte[], byte[]> producer, Bolt bolt) {
            this.producer = producer;
            this.bolt = bolt;
        }

        @Override
        public void commitTransaction() {
            bolt.flush();
            producer.commitTransaction();
        }

        @Override
        public void initTransactions() {
            producer.initTransactions();
        }

        @Override
        public void beginTransaction() {
            producer.beginTransaction();
        }

        @Override
        public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata group) {
            producer.sendOffsetsToTransaction(offsets, group);
        }

        @Override
        public void abortTransaction() {
            producer.abortTransaction();
        }

        @Override
        public void registerMetricForSubscription(KafkaMetric metric) {
            producer.registerMetricForSubscription(metric);
        }

        @Override
        public void unregisterMetricFromSubscription(KafkaMetric metric) {
            producer.unregisterMetricFromSubscription(metric);
        }

        @Override
        public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
            return producer.send(record);
        }

        @Override
        public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
            return producer.send(record, callback);
        }

        @Override
        public void flush() {
            producer.flush();
        }

        @Override
        public List<PartitionInfo> partitionsFor(String topic) {
            return producer.partitionsFor(topic);
        }

        @Override
        public Map<MetricName, ? extends Metric> metrics() {
            return producer.metrics();
        }

        @Override
        public Uuid clientInstanceId(Duration timeout) {
            return producer.clientInstanceId(timeout);
        }

        @Override
        public void close() {
            producer.close();
        }

        @Override
        public void close(Duration timeout) {
            producer.close(timeout);
        }
    }
}
