package io.jolt.stream.protocol.json;

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
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the fields of one §9 JSON line (already parsed, tied to an identity) into an authority
 * record or an entry input, naming the first defect found; {@link RecordJson#read} decides which.
 */
final class LineReader {
    private LineReader() {}

    static String describe(Object value) {
        return value == null ? "(missing)" : value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
    }

    static RecordJson.AuthorityLine authority(String identity, Map<String, Object> object) {
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
            return new RecordJson.AuthorityLine(identity, null, f.firstFailure());
        }
        if (f.hasUnknownKeys()) {
            return new RecordJson.AuthorityLine(identity, null, "unknown field");
        }
        AuthorityBody body = new AuthorityBody(recordType, version, identity, root, sequence, previous, action, createdAt);
        return new RecordJson.AuthorityLine(identity, AuthorityRecord.of(body, signature), null);
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

    static EntryInput entry(Map<String, Object> object, byte[] line) {
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
}
