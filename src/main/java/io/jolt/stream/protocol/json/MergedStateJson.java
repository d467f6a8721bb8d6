package io.jolt.stream.protocol.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jolt.stream.protocol.AppendRecord;
import io.jolt.stream.protocol.DeviceView;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Equivocation;
import io.jolt.stream.protocol.Head;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.SingletonState;
import java.io.IOException;
import java.util.List;

/**
 * The §9 merged-state JSON: the conformance output of {@code jolt merge} and the HTTP identity
 * view, and the pieces (head, singleton, append record, equivocation) every other JSON answer
 * about merged state is made of, so they cannot drift apart.
 */
public final class MergedStateJson {
    private MergedStateJson() {}

    /** A JSON array, one object per identity, in the given order, indented by two spaces. */
    public static String write(List<MergedState> states) {
        return JsonOut.generate(g -> {
            g.useDefaultPrettyPrinter();
            g.writeStartArray();
            for (MergedState state : states) {
                writeState(g, state);
            }
            g.writeEndArray();
        });
    }

    public static String write(MergedState state) {
        return JsonOut.generate(g -> writeState(g, state));
    }

    static void writeState(JsonGenerator g, MergedState state) throws IOException {
        g.writeStartObject();
        g.writeStringField("identity", state.identity());
        g.writeNumberField("required_operation_level", state.requiredOperationLevel());
        g.writeArrayFieldStart("devices");
        for (DeviceView device : state.devices()) {
            writeDevice(g, device);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("singletons");
        for (SingletonState singleton : state.singletons()) {
            writeSingleton(g, singleton);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("appends");
        for (AppendRecord append : state.appends()) {
            writeAppend(g, append);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("rejected");
        for (Rejection row : state.rejected()) {
            writeRejection(g, row);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void writeDevice(JsonGenerator g, DeviceView device) throws IOException {
        g.writeStartObject();
        g.writeStringField("device_id", device.deviceId());
        g.writeStringField("status", device.status().wireName());
        if (device.head() == null) {
            g.writeNullField("head_sequence");
            g.writeNullField("head_hash");
        } else {
            JsonOut.uint64(g, "head_sequence", device.head().deviceSequence());
            g.writeStringField("head_hash", device.head().entryHash().hex());
        }
        g.writeEndObject();
    }

    /** A singleton path: its state, content, head and the other active heads (conflicts), each with its own state. */
    public static void writeSingleton(JsonGenerator g, SingletonState singleton) throws IOException {
        g.writeStartObject();
        g.writeStringField("path", singleton.path());
        g.writeStringField("state", singleton.isTombstoned() ? "tombstoned" : "present");
        JsonOut.stringOrNull(g, "content_id", singleton.contentId());
        g.writeFieldName("head");
        writeHead(g, singleton.head());
        g.writeArrayFieldStart("conflicts");
        for (Entry conflict : singleton.conflicts()) {
            g.writeStartObject();
            writeHeadFields(g, Head.of(conflict));
            String contentId = SingletonState.contentIdOf(conflict);
            g.writeStringField("state", contentId == null ? "tombstoned" : "present");
            JsonOut.stringOrNull(g, "content_id", contentId);
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    public static void writeHead(JsonGenerator g, Head head) throws IOException {
        g.writeStartObject();
        writeHeadFields(g, head);
        g.writeEndObject();
    }

    private static void writeHeadFields(JsonGenerator g, Head head) throws IOException {
        g.writeStringField("device_id", head.deviceId());
        JsonOut.uint64(g, "device_sequence", head.deviceSequence());
        g.writeStringField("entry_hash", head.entryHash().hex());
    }

    public static void writeAppend(JsonGenerator g, AppendRecord append) throws IOException {
        g.writeStartObject();
        g.writeStringField("path", append.path());
        g.writeStringField("content_id", append.contentId());
        g.writeStringField("device_id", append.deviceId());
        JsonOut.uint64(g, "device_sequence", append.deviceSequence());
        JsonOut.uint64(g, "created_at", append.createdAt());
        g.writeStringField("entry_hash", append.entryHash().hex());
        g.writeEndObject();
    }

    /** Equivocation evidence: a device signed several entries at one sequence. */
    public static void writeEquivocation(JsonGenerator g, Equivocation evidence) throws IOException {
        g.writeStartObject();
        g.writeStringField("device_id", evidence.deviceId());
        JsonOut.uint64(g, "device_sequence", evidence.deviceSequence());
        g.writeArrayFieldStart("entry_hashes");
        for (var h : evidence.entryHashes()) {
            g.writeString(h.hex());
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void writeRejection(JsonGenerator g, Rejection row) throws IOException {
        g.writeStartObject();
        JsonOut.hashOrNull(g, "entry_hash", row.entryHash());
        JsonOut.stringOrNull(g, "device_id", row.deviceId());
        if (row.deviceSequence() == null) {
            g.writeNullField("device_sequence");
        } else {
            JsonOut.uint64(g, "device_sequence", row.deviceSequence());
        }
        g.writeStringField("reason", row.reason().wireName());
        g.writeEndObject();
    }
}
