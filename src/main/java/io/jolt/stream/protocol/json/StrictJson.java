package io.jolt.stream.protocol.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.jolt.stream.protocol.DecodeException;
import io.jolt.stream.protocol.Utf8;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON reader for the §9 forms that keeps what a generic tree loses: the exact text of every
 * number (so {@code -0}, {@code 1.0} and {@code 1e3} stay distinguishable from integers and
 * uint64 values above 2^63 stay exact), duplicate keys (an error), and strict UTF-8.
 *
 * <p>Values: {@code Map<String,Object>} (in input order), {@code List<Object>}, {@code String},
 * {@link Number}, {@code Boolean}, and {@link #NULL}.
 */
public final class StrictJson {
    /** JSON {@code null}; a missing key is Java {@code null}. */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    /** A JSON number as written. */
    public record Number(String text, boolean integral) {}

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).maxNumberLength(64).build())
            .build();

    private StrictJson() {}

    /** @throws DecodeException for malformed UTF-8 or JSON, duplicate keys, or trailing content */
    public static Object parse(byte[] utf8) {
        String text = Utf8.decode(utf8, 0, utf8.length);
        try (JsonParser parser = FACTORY.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new DecodeException(DecodeException.Kind.MALFORMED_JSON, "empty input");
            }
            Object value = read(parser, first);
            if (parser.nextToken() != null) {
                throw new DecodeException(DecodeException.Kind.MALFORMED_JSON, "content after the JSON value");
            }
            return value;
        } catch (IOException e) {
            throw new DecodeException(DecodeException.Kind.MALFORMED_JSON, firstLine(e.getMessage()));
        }
    }

    private static Object read(JsonParser parser, JsonToken token) throws IOException {
        switch (token) {
            case START_OBJECT: {
                Map<String, Object> object = new LinkedHashMap<>();
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
                    String key = parser.currentName();
                    Object value = read(parser, parser.nextToken());
                    if (object.put(key, value) != null) {
                        throw new DecodeException(DecodeException.Kind.DUPLICATE_KEY, "duplicate key \"" + key + "\"");
                    }
                }
                return object;
            }
            case START_ARRAY: {
                List<Object> array = new ArrayList<>();
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
                    array.add(read(parser, t));
                }
                return array;
            }
            case VALUE_STRING:
                return parser.getText();
            case VALUE_NUMBER_INT:
                return new Number(parser.getText(), true);
            case VALUE_NUMBER_FLOAT:
                return new Number(parser.getText(), false);
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return NULL;
            default:
                throw new DecodeException(DecodeException.Kind.MALFORMED_JSON, "unexpected token " + token);
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "malformed JSON";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
