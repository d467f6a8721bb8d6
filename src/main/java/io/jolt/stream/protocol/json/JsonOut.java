package io.jolt.stream.protocol.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.jolt.stream.protocol.Hash;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/** Writing JSON the way every Jolt document writes it: uint64 as JSON integers (never rounded), hashes as lowercase hex. */
public final class JsonOut {
    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonOut() {}

    /** A piece of a JSON document, written to a generator. */
    @FunctionalInterface
    public interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    public static String generate(Body body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** An unsigned 64-bit field, as a JSON integer. */
    public static void uint64(JsonGenerator g, String field, long value) throws IOException {
        g.writeFieldName(field);
        g.writeNumber(Long.toUnsignedString(value));
    }

    public static void hashOrNull(JsonGenerator g, String field, Hash hash) throws IOException {
        if (hash == null) {
            g.writeNullField(field);
        } else {
            g.writeStringField(field, hash.hex());
        }
    }

    public static void stringOrNull(JsonGenerator g, String field, String value) throws IOException {
        if (value == null) {
            g.writeNullField(field);
        } else {
            g.writeStringField(field, value);
        }
    }
}
