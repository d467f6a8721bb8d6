package io.jolt.stream.api;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * An error of the read-only registry routes in a Confluent Schema Registry's shape,
 * {@code {"error_code": 40403, "message": "..."}}, not the API's: the callers are Confluent
 * clients, which read {@code error_code} to tell a missing schema from a missing subject.
 */
final class RegistryError extends RuntimeException {
    enum Code {
        /** The service keeps its schemas in an outside registry; Confluent's code for a path it does not serve. */
        NOT_SERVED(404, 404),
        SUBJECT_NOT_FOUND(404, 40401),
        VERSION_NOT_FOUND(404, 40402),
        SCHEMA_NOT_FOUND(404, 40403),
        /** Confluent's code for a version that is neither a number from 1 nor {@code latest}. */
        INVALID_VERSION(422, 42202);

        final int status;
        final int errorCode;

        Code(int status, int errorCode) {
            this.status = status;
            this.errorCode = errorCode;
        }
    }

    /** The body, as Confluent's clients parse it. */
    record Body(@JsonProperty("error_code") int errorCode, String message) {}

    private final Code code;

    RegistryError(Code code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    int status() {
        return code.status;
    }

    Body body() {
        return new Body(code.errorCode, getMessage());
    }
}
