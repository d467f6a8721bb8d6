package io.jolt.stream.protocol;

/**
 * The one error a decoder of canonical bytes or of the JSON forms may raise: the input is not a
 * readable value of the expected type. Its {@link Kind} says why.
 */
public final class DecodeException extends RuntimeException {
    public enum Kind {
        TRUNCATED,
        TRAILING_BYTES,
        LENGTH_OVERRUN,
        UNKNOWN_DISCRIMINATOR,
        MALFORMED_UTF8,
        MALFORMED_HEX,
        UNEXPECTED_LITERAL,
        OUT_OF_RANGE,
        WRONG_TYPE,
        DUPLICATE_KEY,
        MALFORMED_JSON
    }

    private final Kind kind;

    public DecodeException(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
