package io.jolt.stream.protocol.json;

import io.jolt.stream.protocol.AuthorityAction;
import io.jolt.stream.protocol.AuthorityBody;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.DecodeException;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryBody;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.Operation;
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
            return new Skipped("unknown record_type " + LineReader.describe(recordType));
        }
        if (!(identity instanceof String id)) {
            return new Skipped("identity is " + (identity == null ? "missing" : "not a string"));
        }
        return AuthorityBody.RECORD_TYPE.equals(recordType) ? LineReader.authority(id, object) : new EntryLine(id, LineReader.entry(object, line));
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
