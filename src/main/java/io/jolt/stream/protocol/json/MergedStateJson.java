package io.jolt.stream.protocol.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jolt.stream.protocol.AppendRecord;
import io.jolt.stream.protocol.DeviceView;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Head;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.SingletonState;
import java.io.IOException;
import java.util.List;

/** The §9 merged-state JSON: the conformance output of {@code jolt merge} and the HTTP identity view. */
public final class MergedStateJson {
    private MergedStateJson() {}

    /** A JSON array, one object per identity, in the given order, indented by two spaces. */
    public static String write(List<MergedState> states) {
        return RecordJson.generate(g -> {
            g.useDefaultPrettyPrinter();
            g.writeStartArray();
            for (MergedState state : states) {
                writeState(g, state);
            }
            g.writeEndArray();
        });
    }

    public static String write(MergedState state) {
        return RecordJson.generate(g -> writeState(g, state));
    }

    static void writeState(JsonGenerator g, MergedState state) throws IOException {
        g.writeStartObject();
        g.writeStringField("identity", state.identity());
        g.writeNumberField("required_operation_level", state.requiredOperationLevel());
        g.writeArrayFieldStart("devices");
        for (DeviceView device : state.devices()) {
            g.writeStartObject();
            g.writeStringField("device_id", device.deviceId());
            g.writeStringField("status", device.status().wireName());
            if (device.head() == null) {
                g.writeNullField("head_sequence");
                g.writeNullField("head_hash");
            } else {
                RecordJson.uint64(g, "head_sequence", device.head().deviceSequence());
                g.writeStringField("head_hash", device.head().entryHash().hex());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("singletons");
        for (SingletonState singleton : state.singletons()) {
            g.writeStartObject();
            g.writeStringField("path", singleton.path());
            g.writeStringField("state", singleton.isTombstoned() ? "tombstoned" : "present");
            writeNullableString(g, "content_id", singleton.contentId());
            g.writeFieldName("head");
            writeHead(g, singleton.head());
            g.writeArrayFieldStart("conflicts");
            for (Entry conflict : singleton.conflicts()) {
                Head head = Head.of(conflict);
                g.writeStartObject();
                g.writeStringField("device_id", head.deviceId());
                RecordJson.uint64(g, "device_sequence", head.deviceSequence());
                g.writeStringField("entry_hash", head.entryHash().hex());
                String contentId = SingletonState.contentIdOf(conflict);
                g.writeStringField("state", contentId == null ? "tombstoned" : "present");
                writeNullableString(g, "content_id", contentId);
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("appends");
        for (AppendRecord append : state.appends()) {
            writeAppend(g, append);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("rejected");
        for (Rejection row : state.rejected()) {
            g.writeStartObject();
            RecordJson.hashOrNull(g, "entry_hash", row.entryHash());
            writeNullableString(g, "device_id", row.deviceId());
            if (row.deviceSequence() == null) {
                g.writeNullField("device_sequence");
            } else {
                RecordJson.uint64(g, "device_sequence", row.deviceSequence());
            }
            g.writeStringField("reason", row.reason().wireName());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    static void writeHead(JsonGenerator g, Head head) throws IOException {
        g.writeStartObject();
        g.writeStringField("device_id", head.deviceId());
        RecordJson.uint64(g, "device_sequence", head.deviceSequence());
        g.writeStringField("entry_hash", head.entryHash().hex());
        g.writeEndObject();
    }

    static void writeAppend(JsonGenerator g, AppendRecord append) throws IOException {
        g.writeStartObject();
        g.writeStringField("path", append.path());
        g.writeStringField("content_id", append.contentId());
        g.writeStringField("device_id", append.deviceId());
        RecordJson.uint64(g, "device_sequence", append.deviceSequence());
        RecordJson.uint64(g, "created_at", append.createdAt());
        g.writeStringField("entry_hash", append.entryHash().hex());
        g.writeEndObject();
    }

    private static void writeNullableString(JsonGenerator g, String field, String value) throws IOException {
        if (value == null) {
            g.writeNullField(field);
        } else {
            g.writeStringField(field, value);
        }
    }
}
