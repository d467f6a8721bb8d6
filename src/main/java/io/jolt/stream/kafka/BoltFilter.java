package io.jolt.stream.kafka;

import io.jolt.stream.avro.ArchiveKind;
import io.jolt.stream.avro.ArchiveRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The bolt's gate: Insert and Remove go to the archive; Compact, a record of forgetting, is
 * dropped, which is precisely what lets the archive keep more than the live side.
 */
final class BoltFilter implements Processor<Object, ArchiveOperation, String, ArchiveRecord> {
    private ProcessorContext<String, ArchiveRecord> context;

    @Override
    public void init(ProcessorContext<String, ArchiveRecord> context) {
        this.context = context;
    }

    @Override
    public void process(Record<Object, ArchiveOperation> record) {
        if (record.value() instanceof ArchiveOperation.Content content) {
            context.forward(new Record<>(content.identity(), archiveRecord(content), record.timestamp()));
        }
    }

    static ArchiveRecord archiveRecord(ArchiveOperation.Content op) {
        ArchiveKind kind = op instanceof ArchiveOperation.Remove ? ArchiveKind.REMOVE : ArchiveKind.INSERT;
        return new ArchiveRecord(kind, op.identity(), op.entry().deviceId(), op.entry().sequence(),
                AvroRecords.hash32(op.entry().hash()), AvroRecords.entry(op.entry()),
                op.source().topic(), op.source().partition(), op.source().offset());
    }
}
