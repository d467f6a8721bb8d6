package io.jolt.stream.archive.service;

import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.protocol.DecodeException;
import io.jolt.stream.wire.AvroRecords;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Indexes each archived operation by identity and by identity and path, at the archive offset it
 * sits at. The key is the location, so indexing a record again (after a crash before a commit,
 * which exactly-once makes rare) writes the same key: the index never holds a record twice.
 */
final class ArchiveIndexer implements Processor<String, byte[], Void, Void> {
    private static final Logger LOG = LoggerFactory.getLogger(ArchiveIndexer.class);

    private final ConfluentAvroSerde<ArchiveRecord> serde;
    private final IndexCounts counts;
    private ProcessorContext<Void, Void> context;
    private KeyValueStore<Bytes, byte[]> byIdentity;
    private KeyValueStore<Bytes, byte[]> byPath;

    ArchiveIndexer(SchemaRegistry registry, IndexCounts counts) {
        this.serde = new ConfluentAvroSerde<>(registry, ArchiveRecord.getClassSchema());
        this.counts = counts;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        this.byIdentity = context.getStateStore(ArchiveIndexTopology.IDENTITY_INDEX);
        this.byPath = context.getStateStore(ArchiveIndexTopology.PATH_INDEX);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        RecordMetadata at = context.recordMetadata().orElseThrow();
        ArchiveRecord operation;
        String path;
        try {
            if (record.value() == null) {
                throw new SerializationException("no value");
            }
            operation = serde.deserialize(at.topic(), record.value());
            path = AvroRecords.entry(operation.getEntry()).body().operation().path();
        } catch (SerializationException | DecodeException e) {
            counts.unreadable.incrementAndGet();
            LOG.warn("archive index: cannot read the archive record at {}-{}@{}: {}", at.topic(), at.partition(), at.offset(), e.toString());
            return;
        }
        byte[] value = IndexKeys.value(record.timestamp(), operation.getKind(), path);
        byIdentity.put(IndexKeys.operation(operation.getIdentity(), at.partition(), at.offset()), value);
        byPath.put(IndexKeys.pathOperation(operation.getIdentity(), path, at.partition(), at.offset()), value);
        counts.indexed.incrementAndGet();
    }
}
