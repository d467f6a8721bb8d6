package io.jolt.stream.http;

import io.javalin.http.Context;
import io.jolt.stream.protocol.json.JsonOut;

/**
 * An error in the one shape both HTTP services answer:
 * {@code {"error": {"code": ..., "message": ..., "details": {...}}}}, details only when there are
 * any. One stable code per distinction; the message is for people.
 */
public class HttpError extends RuntimeException {
    private final int status;
    private final String code;
    private final JsonOut.Body details;

    protected HttpError(int status, String code, String message, JsonOut.Body details) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.details = details;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** The fields of the error's {@code details} object, or null for none. */
    public JsonOut.Body details() {
        return details;
    }

    /** This error's body. */
    public String body() {
        return body(code, getMessage(), details);
    }

    /** The one error shape. */
    public static String body(String code, String message, JsonOut.Body details) {
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

    /** Answers with an error; a 503 is temporary, so it tells the client to retry after a second. */
    public static void answer(Context ctx, int status, String code, String message, JsonOut.Body details) {
        if (status == 503) {
            ctx.header("Retry-After", "1");
        }
        ctx.status(status).contentType("application/json").result(body(code, message, details));
    }
}
