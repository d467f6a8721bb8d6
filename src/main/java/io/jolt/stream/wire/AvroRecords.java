package io.jolt.stream.wire;

import io.jolt.stream.avro.Authorize;
import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.avro.Hash32;
import io.jolt.stream.avro.Key32;
import io.jolt.stream.avro.Mode;
import io.jolt.stream.avro.Revoke;
import io.jolt.stream.avro.SetPath;
import io.jolt.stream.avro.Signature64;
import io.jolt.stream.avro.TombstonePath;
import io.jolt.stream.protocol.AuthorityAction;
import io.jolt.stream.protocol.AuthorityBody;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Cutoff;
import io.jolt.stream.protocol.DecodeException;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryBody;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.Uint64;
import java.util.ArrayList;
import java.util.List;

/**
 * Between the Avro records of the topics and the protocol's values. The Avro fields are the
 * protocol fields one for one, so the canonical bytes are re-derived exactly.
 */
public final class AvroRecords {
    private AvroRecords() {}

    /** @throws DecodeException when a field cannot be a protocol value (version beyond uint16, a sequence beyond uint64) */
    public static Entry entry(DeviceWriterEntry avro) {
        Operation operation;
        if (avro.getOperation() instanceof SetPath set) {
            operation = new Operation.SetPath(set.getPath(), set.getContentId(),
                    set.getMode() == Mode.SINGLETON ? Operation.Mode.SINGLETON : Operation.Mode.APPEND);
        } else if (avro.getOperation() instanceof TombstonePath tombstone) {
            operation = new Operation.TombstonePath(tombstone.getPath());
        } else {
            throw new DecodeException(DecodeException.Kind.UNKNOWN_DISCRIMINATOR, "unknown operation " + avro.getOperation());
        }
        List<Hash> heads = new ArrayList<>(avro.getObservedHeads().size());
        avro.getObservedHeads().forEach(h -> heads.add(Hash.of(h.bytes())));
        EntryBody body = new EntryBody(avro.getRecordType(), uint16(avro.getVersion()), avro.getIdentity(), avro.getDeviceId(),
                Uint64.unsigned(avro.getDeviceSequence(), "device_sequence"), hash(avro.getPreviousEntryHash()), operation,
                Uint64.unsigned(avro.getCreatedAt(), "created_at"), heads);
        return Entry.of(body, avro.getSignature().bytes());
    }

    public static DeviceWriterEntry entry(Entry entry) {
        EntryBody body = entry.body();
        Object operation = body.operation() instanceof Operation.SetPath set
                ? new SetPath(set.path(), set.contentId(), set.mode() == Operation.Mode.SINGLETON ? Mode.SINGLETON : Mode.APPEND)
                : new TombstonePath(body.operation().path());
        List<Hash32> heads = body.observedHeads().stream().map(h -> new Hash32(h.bytes())).toList();
        return new DeviceWriterEntry(body.recordType(), body.version(), body.identity(), body.deviceId(), Uint64.decimal(body.deviceSequence()),
                body.previousEntryHash() == null ? null : new Hash32(body.previousEntryHash().bytes()), operation,
                Uint64.decimal(body.createdAt()), heads, new Signature64(entry.signature()));
    }

    public static AuthorityRecord authority(io.jolt.stream.avro.AuthorityRecord avro) {
        AuthorityAction action;
        if (avro.getAction() instanceof Authorize a) {
            action = new AuthorityAction.Authorize(a.getDeviceId(), a.getDevicePublicKey().bytes());
        } else if (avro.getAction() instanceof Revoke r) {
            io.jolt.stream.avro.Cutoff c = r.getCutoff();
            action = new AuthorityAction.Revoke(r.getDeviceId(), c == null ? null : new Cutoff(Uint64.unsigned(c.getDeviceSequence(), "cutoff.device_sequence"), Hash.of(c.getEntryHash().bytes())));
        } else {
            throw new DecodeException(DecodeException.Kind.UNKNOWN_DISCRIMINATOR, "unknown action " + avro.getAction());
        }
        AuthorityBody body = new AuthorityBody(avro.getRecordType(), uint16(avro.getVersion()), avro.getIdentity(),
                avro.getRootPublicKey().bytes(), Uint64.unsigned(avro.getAuthoritySequence(), "authority_sequence"), hash(avro.getPreviousRecordHash()),
                action, Uint64.unsigned(avro.getCreatedAt(), "created_at"));
        return AuthorityRecord.of(body, avro.getSignature().bytes());
    }

    public static io.jolt.stream.avro.AuthorityRecord authority(AuthorityRecord record) {
        AuthorityBody body = record.body();
        Object action;
        if (body.action() instanceof AuthorityAction.Authorize a) {
            action = new Authorize(a.deviceId(), new Key32(a.devicePublicKey()));
        } else {
            AuthorityAction.Revoke r = (AuthorityAction.Revoke) body.action();
            action = new Revoke(r.deviceId(), r.cutoff() == null ? null
                    : new io.jolt.stream.avro.Cutoff(Uint64.decimal(r.cutoff().deviceSequence()), new Hash32(r.cutoff().entryHash().bytes())));
        }
        return new io.jolt.stream.avro.AuthorityRecord(body.recordType(), body.version(), body.identity(), new Key32(body.rootPublicKey()),
                Uint64.decimal(body.authoritySequence()), body.previousRecordHash() == null ? null : new Hash32(body.previousRecordHash().bytes()),
                action, Uint64.decimal(body.createdAt()), new Signature64(record.signature()));
    }

    public static Hash32 hash32(Hash hash) {
        return hash == null ? null : new Hash32(hash.bytes());
    }

    private static Hash hash(Hash32 avro) {
        return avro == null ? null : Hash.of(avro.bytes());
    }

    private static int uint16(int value) {
        if (value < 0 || value > 0xffff) {
            throw new DecodeException(DecodeException.Kind.OUT_OF_RANGE, "version " + value + " is not a uint16");
        }
        return value;
    }
}
