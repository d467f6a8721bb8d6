package io.jolt.stream.processor;

import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.processor.store.IdentityStore;
import io.jolt.stream.processor.store.IdentitySummary;
import io.jolt.stream.processor.store.Source;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Defect;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryRules;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.PublicKey;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.RejectionReason;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import java.util.Optional;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Verifies, assembles and merges the records of the identities of one partition: one handler
 * per kind of input, each record decoded ({@link InputDecoder}), checked, verified once and sent
 * either along the {@link HotPath} or to a {@link Reevaluation}. Both produce exactly what
 * {@link IdentityAssembler} computes from the set of records received.
 *
 * <p>The live side forgets in three ways, each reported on {@code jolt.compactions.v2} and sent
 * to the bolt as a Compact (which it drops): entries held while not eligible beyond a bound,
 * entries that stop being eligible when their branch loses, and, when configured, superseded
 * singleton history past its retention (a sweep on wall-clock time; see {@link ForgettingPolicy}).
 */
final class IdentityProcessor implements Processor<String, byte[], Object, Object> {
    private final InputDecoder decoder;
    private final ForgettingPolicy policy;
    private final SignatureCheck signatures;

    private ProcessorContext<Object, Object> context;
    private IdentityStore store;
    private IdentityOutputs outputs;
    private Forgetter forgetter;
    private HotPath hotPath;
    private Reevaluation reevaluation;
    private ProcessorMetrics metrics;

    IdentityProcessor(ConfluentAvroSerde<io.jolt.stream.avro.AuthorityRecord> authoritySerde, ConfluentAvroSerde<DeviceWriterEntry> entrySerde,
            ForgettingPolicy policy, SignatureCheck signatures) {
        this.decoder = new InputDecoder(authoritySerde, entrySerde);
        this.policy = policy;
        this.signatures = signatures;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        metrics = new ProcessorMetrics(context.metrics(), context.taskId());
        store = new IdentityStore(name -> context.getStateStore(name.storeName()));
        outputs = new IdentityOutputs(context, store, metrics);
        outputs.foldStateChanges();
        forgetter = new Forgetter(policy, store, outputs, signatures);
        hotPath = new HotPath(store, outputs, metrics);
        reevaluation = new Reevaluation(store, outputs, forgetter, metrics, signatures);
        if (policy.forgetsSupersededHistory()) {
            context.schedule(policy.sweepInterval(), PunctuationType.WALL_CLOCK_TIME, forgetter::sweep);
        }
    }

    @Override
    public void close() {
        metrics.close();
    }

    @Override
    public void process(Record<String, byte[]> record) {
        RecordMetadata meta = context.recordMetadata().orElseThrow();
        Source source = new Source(meta.topic(), meta.partition(), meta.offset());
        outputs.at(record.timestamp());
        InputDecoder.Decoded decoded = decoder.decode(record.key(), record.value(), source);
        if (decoded instanceof InputDecoder.AuthorityInput a) {
            processAuthority(a.record(), source);
        } else if (decoded instanceof InputDecoder.EntryInput e) {
            processEntry(e.entry(), source);
        } else if (decoded instanceof InputDecoder.Rejected r) {
            outputs.rejected(r.identity(), r.report());
        }
    }

    private void processAuthority(AuthorityRecord record, Source source) {
        if (store.addAuthority(record)) { // the same record again changes nothing
            reevaluation.reevaluate(record.body().identity(), source);
        }
    }

    private void processEntry(Entry entry, Source source) {
        String identity = entry.body().identity();
        Optional<Defect> defect = EntryRules.check(entry.body(), identity);
        if (defect.isPresent()) {
            // Never eligible under any authority: reported, not stored.
            outputs.rejection(identity, new Rejection(entry.hash(), entry.deviceId(), entry.sequence(), RejectionReason.INVALID_ENTRY, defect.get()),
                    source);
            return;
        }
        if (store.holds(entry)) {
            metrics.duplicates.record(); // identical entries count once; an at-least-once writer's repeats are counted here
            return;
        }
        Optional<IdentitySummary> summary = store.summary(identity);
        Optional<IdentitySummary.Device> device = summary.flatMap(s -> s.device(entry.deviceId()));
        if (device.isEmpty()) {
            holdForUnknownDevice(identity, entry, source);
        } else if (!isForgottenHistory(identity, device.get(), entry)) {
            verifyAndMerge(identity, summary.get(), device.get(), entry, source);
        }
    }

    /** Kept in the entries store: a later Authorize re-evaluates the identity and admits it. */
    private void holdForUnknownDevice(String identity, Entry entry, Source source) {
        store.putEntry(entry, source, false);
        outputs.rejection(identity, Rejection.of(entry, RejectionReason.UNKNOWN_DEVICE), source);
        if (forgetter.holdOneMore(identity)) {
            reevaluation.reevaluate(identity, source); // counts exactly and drops down to the low-water mark
        }
    }

    /**
     * Forgotten history received again (the archive holds it) is ignored, as the core ignores it.
     * Only an entry at or below its device's eligible head can be: the hot path never asks.
     */
    private boolean isForgottenHistory(String identity, IdentitySummary.Device device, Entry entry) {
        return device.head() != null && Long.compareUnsigned(entry.sequence(), device.head().deviceSequence()) <= 0
                && store.compacted(identity).forgets(entry);
    }

    private void verifyAndMerge(String identity, IdentitySummary summary, IdentitySummary.Device device, Entry entry, Source source) {
        Optional<PublicKey> deviceKey = PublicKey.parse(device.publicKey());
        if (deviceKey.isEmpty()) {
            store.putEntry(entry, source, false);
            reevaluation.reevaluate(identity, source); // cannot happen for a verified authority; never skip verification
            return;
        }
        metrics.verified.record();
        if (!entry.signatureVerifies(deviceKey.get(), signatures)) {
            store.putEntry(entry, source, false);
            outputs.rejection(identity, Rejection.of(entry, RejectionReason.BAD_SIGNATURE), source);
            return;
        }
        boolean hot = hotPath.takes(identity, device, entry);
        store.putEntry(entry, source, hot);
        if (hot) {
            hotPath.apply(identity, summary, entry, source);
        } else {
            reevaluation.reevaluate(identity, source);
        }
    }
}
