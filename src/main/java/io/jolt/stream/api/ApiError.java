package io.jolt.stream.api;

import io.jolt.stream.protocol.json.JsonOut;

/**
 * Every error of the HTTP API has this shape: {@code {"error": {"code": ..., "message": ...}}},
 * one stable code per distinction (RFC-0008 §12: tombstoned is not missing, a non-canonical
 * address is not a lookup).
 */
public final class ApiError extends RuntimeException {
    public enum Code {
        /** Refused by the HTTP server before routing: an ambiguous or badly encoded URI, a malformed header. */
        BAD_REQUEST(400),
        PATH_NOT_CANONICAL(400),
        PREFIX_NOT_CANONICAL(400),
        BAD_PARAMETER(400),
        BAD_PAGE_TOKEN(400),
        BAD_SYNC_REQUEST(400),
        PATH_NOT_FOUND(404),
        PATH_TOMBSTONED(410),
        /** A sync answer would need history this provider forgot (superseded history past its retention). */
        HISTORY_FORGOTTEN(410),
        IDENTITY_NOT_FOUND(404),
        /** A write or a scrape without the configured credentials ({@link HttpAccess}). */
        UNAUTHORIZED(401),
        BODY_TOO_LARGE(413),
        /** Not RUNNING yet, or a rebalance began while answering: retry shortly (Retry-After). */
        NOT_READY(503),
        /**
         * The owner Kafka Streams names did not answer: it died or left, and the group has not yet
         * moved its partitions (up to a session timeout). Temporary, like NOT_READY.
         */
        OWNER_UNREACHABLE(503);

        final int status;

        Code(int status) {
            this.status = status;
        }

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    final Code code;
    /** The fields of the error's {@code details} object, or null for none. */
    final JsonOut.Body details;

    public ApiError(Code code, String message) {
        this(code, message, null);
    }

    public ApiError(Code code, String message, JsonOut.Body details) {
        super(message, null, false, false);
        this.code = code;
        this.details = details;
    }

    /** The API's one error shape. */
    static String body(String code, String message, JsonOut.Body details) {
        return JsonOut.generate(g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("error");
            g.writeStringField("code", code);
            g.writeStringField("message", message);
            if (details != null) {
                g.writeObjectFieldStart("details");
                details.write(g);
                g.writeEndObject();
            }
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    String body() {
        return body(code.wireName(), getMessage(), details);
    }
}
