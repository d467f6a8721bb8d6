package io.jolt.stream.archive.service;

import io.jolt.stream.http.HttpError;
import java.util.Locale;

/** The archive service's errors, in the HTTP API's one shape: {@code {"error": {"code": ..., "message": ...}}}. */
final class ArchiveError extends HttpError {
    enum Code {
        BAD_PARAMETER(400),
        /** Nothing of this identity is archived (an identity whose history is empty is not one the archive knows). */
        NOT_ARCHIVED(404),
        /** The index is not RUNNING yet (starting, restoring, rebalancing): retry shortly. */
        NOT_READY(503);

        final int status;

        Code(int status) {
            this.status = status;
        }

        String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    ArchiveError(Code code, String message) {
        super(code.status, code.wireName(), message, null);
    }
}
