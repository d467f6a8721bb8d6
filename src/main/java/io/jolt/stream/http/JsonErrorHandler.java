package io.jolt.stream.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * Requests Jetty refuses before any route sees them (an ambiguous or badly encoded URI, a
 * malformed header) get the one error shape, {@code bad_request}, not Jetty's HTML page.
 */
final class JsonErrorHandler extends ErrorHandler {
    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, "application/json");
        String message = reason == null ? "the request could not be read" : reason;
        return ByteBuffer.wrap(HttpError.body("bad_request", message, null).getBytes(StandardCharsets.UTF_8));
    }
}
