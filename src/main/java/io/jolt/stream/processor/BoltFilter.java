package io.jolt.stream.processor;

import io.jolt.stream.avro.ArchiveKind;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.protocol.Uint64;
import io.jolt.stream.wire.AvroRecords;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The bolt's gate: Insert and Remove go to the archive; Compact, a record of forgetting, is
 * dropped, which is precisely what lets the archive keep more than the live side. The archive
 * is written by the bolt's own producer (see {@link io.jolt.stream.archive.KafkaBolt}), so a
 * failed archive write never aborts the live side's transaction.
 */
final class BoltFilter implements Processor<Object, ArchiveOperation, Void, Void> {
    private final Bolt bolt;

    BoltFilter(Bolt bolt) {
        this.bolt = bolt;
    }

    @Override
    public void process(Record<Object, ArchiveOperation> record) {
        if (record.value() instanceof ArchiveOperation.Content content) {
            bolt.append(archiveRecord(content));
        }
    }

    static ArchiveRecord archiveRecord(ArchiveOperation.Content op) {
        ArchiveKind kind = op instanceof ArchiveOperation.Remove ? ArchiveKind.REMOVE : ArchiveKind.INSERT;
        return new ArchiveRecord(kind, op.identity(), op.entry().deviceId(), Uint64.decimal(op.entry().sequence()),
                AvroRecords.hash32(op.entry().hash()), AvroRecords.entry(op.entry()),
                op.source().topic(), op.source().partition(), op.source().offset());
    }
}
