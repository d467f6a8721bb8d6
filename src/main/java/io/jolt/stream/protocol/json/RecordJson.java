package io.jolt.stream.protocol.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jolt.stream.protocol.AuthorityAction;
import io.jolt.stream.protocol.AuthorityBody;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Cutoff;
import io.jolt.stream.protocol.DecodeException;
import io.jolt.stream.protocol.Defect;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryBody;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.PublicKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The §9 JSON Lines form of authority records and device-writer entries: read and write. */
public final class RecordJson {

    private RecordJson() {}

    /** What one bundle line is. */
    public sealed interface Line {}

    /** An authority record of {@code identity}; {@code record} is null when it cannot be read (then it counts for nothing). */
    public record AuthorityLine(String identity, AuthorityRecord record, String problem) implements Line {}

    public record EntryLine(String identity, EntryInput input) implements Line {}

    /** A line that cannot be tied to an identity. */
    public record Skipped(String reason) implements Line {}

    public static Line read(byte[] line) {
        Object parsed;
        try {
            parsed = StrictJson.parse(line);
        } catch (DecodeException e) {
            return new Skipped(e.getMessage());
        }
        if (!(parsed instanceof Map<?, ?> raw)) {
            return new Skipped("not a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) raw;
        Object recordType = object.get("record_type");
        Object identity = object.get("identity");
        if (!AuthorityBody.RECORD_TYPE.equals(recordType) && !EntryBody.RECORD_TYPE.equals(recordType)) {
            return new Skipped("unknown record_type " + describe(recordType));
        }
        if (!(identity instanceof String id)) {
            return new Skipped("identity is " + (identity == null ? "missing" : "not a string"));
        }
        return AuthorityBody.RECORD_TYPE.equals(recordType) ? readAuthority(id, object) : new EntryLine(id, readEntry(object, line));
    }

    private static String describe(Object value) {
        return value == null ? "(missing)" : value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
    }

    private static AuthorityLine readAuthority(String identity, Map<String, Object> object) {
        Fields f = new Fields(object);
        String recordType = f.string("record_type");
        Integer version = f.uint16("version");
        f.string("identity");
        byte[] root = f.hex("root_public_key", PublicKey.LENGTH);
        Long sequence = f.uint64("authority_sequence");
        Hash previous = f.nullableHash("previous_record_hash");
        AuthorityAction action = action(f.object("action"), f);
        Long createdAt = f.uint64("created_at");
        byte[] signature = f.hex("signature", AuthorityRecord.SIGNATURE_LENGTH);
        if (f.failed()) {
            return new AuthorityLine(identity, null, f.firstFailure());
        }
        if (f.hasUnknownKeys()) {
            return new AuthorityLine(identity, null, "unknown field");
        }
        AuthorityBody body = new AuthorityBody(recordType, version, identity, root, sequence, previous, action, createdAt);
        return new AuthorityLine(identity, AuthorityRecord.of(body, signature), null);
    }

    private static AuthorityAction action(Map<String, Object> object, Fields outer) {
        if (object == null) {
            return null;
        }
        Fields f = new Fields(object);
        String op = f.string("op");
        String deviceId = f.string("device_id");
        AuthorityAction action = null;
        if ("authorize".equals(op)) {
            byte[] key = f.hex("device_public_key", PublicKey.LENGTH);
            action = f.failed() ? null : new AuthorityAction.Authorize(deviceId, key);
        } else if ("revoke".equals(op)) {
            Cutoff cutoff = null;
            if (!(f.isPresent("cutoff") && f.isNull("cutoff"))) {
                Map<String, Object> c = f.object("cutoff");
                if (c != null) {
                    Fields cf = new Fields(c);
                    Long sequence = cf.uint64("device_sequence");
                    Hash hash = cf.hash("entry_hash");
                    if (cf.failed() || cf.hasUnknownKeys()) {
                        f.reject("cutoff", "unreadable cutoff");
                    } else {
                        cutoff = new Cutoff(sequence, hash);
                    }
                }
            } else {
                f.known("cutoff");
            }
            action = f.failed() ? null : new AuthorityAction.Revoke(deviceId, cutoff);
        } else {
            f.reject("op", "unknown action " + describe(op));
        }
        if (f.failed() || f.hasUnknownKeys()) {
            outer.reject("action", f.failed() ? f.firstFailure() : "unknown field in action");
            return null;
        }
        return action;
    }

    private static EntryInput readEntry(Map<String, Object> object, byte[] line) {
        Fields f = new Fields(object);
        String recordType = f.string("record_type");
        Integer version = f.uint16("version");
        String identity = f.string("identity");
        String deviceId = f.string("device_id");
        Long sequence = f.uint64("device_sequence");
        Hash previous = f.nullableHash("previous_entry_hash");
        Operation operation = operation(f.object("operation"), f);
        Long createdAt = f.uint64("created_at");
        List<Hash> heads = heads(f);
        if (f.failed()) {
            return new EntryInput.Unreadable(null, deviceId, sequence, Defect.UNREADABLE_FIELD, f.firstFailure(), Hash.blake3(line));
        }
        EntryBody body = new EntryBody(recordType, version, identity, deviceId, sequence, previous, operation, createdAt, heads);
        byte[] signature = f.hex("signature", Entry.SIGNATURE_LENGTH);
        if (signature == null) {
            Hash hash = Hash.blake3(body.canonicalBytes());
            return new EntryInput.Unreadable(hash, deviceId, sequence, Defect.UNREADABLE_SIGNATURE, f.firstFailure(), Hash.blake3(line));
        }
        Entry entry = Entry.of(body, signature);
        return f.hasUnknownKeys() ? new EntryInput.Signed(entry, Defect.UNKNOWN_FIELD) : new EntryInput.Signed(entry);
    }

    private static List<Hash> heads(Fields f) {
        if (!f.isPresent("observed_heads")) {
            return List.of();
        }
        List<Object> array = f.array("observed_heads");
        if (array == null) {
            return List.of();
        }
        List<Hash> heads = new ArrayList<>(array.size());
        for (Object item : array) {
            try {
                if (!(item instanceof String s)) {
                    throw new DecodeException(DecodeException.Kind.WRONG_TYPE, "not a string");
                }
                heads.add(Hash.fromHex(s));
            } catch (DecodeException e) {
                f.reject("observed_heads", e.getMessage());
                return List.of();
            }
        }
        return heads;
    }

    private static Operation operation(Map<String, Object> object, Fields outer) {
        if (object == null) {
            return null;
        }
        Fields f = new Fields(object);
        String op = f.string("op");
        String path = f.string("path");
        Operation operation = null;
        if ("set".equals(op)) {
            String contentId = f.string("content_id");
            String mode = f.string("mode");
            Operation.Mode parsed = "singleton".equals(mode) ? Operation.Mode.SINGLETON
                    : "append".equals(mode) ? Operation.Mode.APPEND : null;
            if (parsed == null) {
                f.reject("mode", "unknown mode " + describe(mode));
            }
            operation = new Operation.SetPath(path, contentId, parsed);
        } else if ("tombstone".equals(op)) {
            operation = new Operation.TombstonePath(path);
        } else {
            f.reject("op", "unknown operation " + describe(op));
        }
        if (f.failed() || f.hasUnknownKeys()) {
            outer.reject("operation", f.failed() ? f.firstFailure() : "unknown field in operation");
            return null;
        }
        return operation;
    }

    public static String write(AuthorityRecord record) {
        AuthorityBody body = record.body();
        return JsonOut.generate(g -> {
            g.writeStartObject();
            g.writeStringField("record_type", body.recordType());
            g.writeNumberField("version", body.version());
            g.writeStringField("identity", body.identity());
            g.writeStringField("root_public_key", Hex.encode(body.rootPublicKey()));
            JsonOut.uint64(g, "authority_sequence", body.authoritySequence());
            JsonOut.hashOrNull(g, "previous_record_hash", body.previousRecordHash());
            g.writeObjectFieldStart("action");
            if (body.action() instanceof AuthorityAction.Authorize a) {
                g.writeStringField("op", "authorize");
                g.writeStringField("device_id", a.deviceId());
                g.writeStringField("device_public_key", Hex.encode(a.devicePublicKey()));
            } else if (body.action() instanceof AuthorityAction.Revoke r) {
                g.writeStringField("op", "revoke");
                g.writeStringField("device_id", r.deviceId());
                if (r.cutoff() == null) {
                    g.writeNullField("cutoff");
                } else {
                    g.writeObjectFieldStart("cutoff");
                    JsonOut.uint64(g, "device_sequence", r.cutoff().deviceSequence());
                    g.writeStringField("entry_hash", r.cutoff().entryHash().hex());
                    g.writeEndObject();
                }
            }
            g.writeEndObject();
            JsonOut.uint64(g, "created_at", body.createdAt());
            g.writeStringField("signature", Hex.encode(record.signature()));
            g.writeEndObject();
        });
    }

    public static String write(Entry entry) {
        EntryBody body = entry.body();
        return JsonOut.generate(g -> {
            g.writeStartObject();
            g.writeStringField("record_type", body.recordType());
            g.writeNumberField("version", body.version());
            g.writeStringField("identity", body.identity());
            g.writeStringField("device_id", body.deviceId());
            JsonOut.uint64(g, "device_sequence", body.deviceSequence());
            JsonOut.hashOrNull(g, "previous_entry_hash", body.previousEntryHash());
            g.writeObjectFieldStart("operation");
            if (body.operation() instanceof Operation.SetPath set) {
                g.writeStringField("op", "set");
                g.writeStringField("path", set.path());
                g.writeStringField("content_id", set.contentId());
                g.writeStringField("mode", set.mode() == Operation.Mode.SINGLETON ? "singleton" : "append");
            } else {
                g.writeStringField("op", "tombstone");
                g.writeStringField("path", body.operation().path());
            }
            g.writeEndObject();
            JsonOut.uint64(g, "created_at", body.createdAt());
            if (!body.observedHeads().isEmpty()) {
                g.writeArrayFieldStart("observed_heads");
                for (Hash h : body.observedHeads()) {
                    g.writeString(h.hex());
                }
                g.writeEndArray();
            }
            g.writeStringField("signature", Hex.encode(entry.signature()));
            g.writeEndObject();
        });
    }
}
