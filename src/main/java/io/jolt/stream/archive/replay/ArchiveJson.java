package io.jolt.stream.archive.replay;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jolt.stream.archive.replay.ArchiveReplay.Archived;
import io.jolt.stream.protocol.json.JsonOut;
import io.jolt.stream.protocol.json.MergedStateJson;
import java.io.IOException;

/** The archive's answers as JSON: the archive service sends these, and a full-scan replay writes the same. */
public final class ArchiveJson {
    private ArchiveJson() {}

    /** Where an as-of answer was cut: an archive offset, an archive time (ms), or neither (the whole archive). */
    public record AsOf(Long offset, Long time) {
        public static final AsOf NOW = new AsOf(null, null);
    }

    public static String history(ArchivedHistory history, String path) {
        return JsonOut.generate(g -> {
            g.writeStartObject();
            g.writeStringField("identity", history.identity());
            JsonOut.stringOrNull(g, "path", path);
            g.writeArrayFieldStart("operations");
            for (Archived a : history.operations()) {
                operation(g, a);
            }
            g.writeEndArray();
            g.writeNumberField("duplicates_removed", history.duplicatesRemoved());
            g.writeEndObject();
        });
    }

    public static String state(ArchivedHistory history, AsOf asOf) {
        return JsonOut.generate(g -> {
            g.writeStartObject();
            g.writeStringField("identity", history.identity());
            g.writeObjectFieldStart("as_of");
            writeNullable(g, "archive_offset", asOf.offset());
            writeNullable(g, "archive_time", asOf.time());
            g.writeEndObject();
            g.writeNumberField("operations", history.operations().size());
            g.writeNumberField("duplicates_removed", history.duplicatesRemoved());
            g.writeFieldName("state");
            g.writeRawValue(MergedStateJson.write(history.state()));
            g.writeEndObject();
        });
    }

    private static void operation(JsonGenerator g, Archived a) throws IOException {
        g.writeStartObject();
        g.writeStringField("kind", a.kind().name());
        g.writeStringField("device_id", a.entry().deviceId());
        JsonOut.uint64(g, "sequence", a.entry().sequence());
        g.writeStringField("path", a.entry().body().operation().path());
        g.writeStringField("entry_hash", a.entry().hash().hex());
        g.writeNumberField("archive_partition", a.partition());
        g.writeNumberField("archive_offset", a.offset());
        g.writeNumberField("archive_time", a.timestamp());
        g.writeEndObject();
    }

    private static void writeNullable(JsonGenerator g, String field, Long value) throws IOException {
        if (value == null) {
            g.writeNullField(field);
        } else {
            g.writeNumberField(field, value);
        }
    }
}
