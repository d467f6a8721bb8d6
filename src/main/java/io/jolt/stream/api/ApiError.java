package io.jolt.stream.api;

import io.jolt.stream.http.HttpError;
import io.jolt.stream.protocol.json.JsonOut;

/**
 * Every error of the HTTP API has this shape: {@code {"error": {"code": ..., "message": ...}}},
 * one stable code per distinction (RFC-0008 §12: tombstoned is not missing, a non-canonical
 * address is not a lookup).
 */
public final class ApiError extends HttpError {
    public enum Code {
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
        /** A request of a closed role without credentials let into it: none, unknown ones, or another role's ({@link HttpAccess}). */
        UNAUTHORIZED(401),
        BODY_TOO_LARGE(413),
        /** A POST /v1/records batch of more lines than a client's burst: it could never be let through, so it is not a 429 ({@link EdgeQuotas}). */
        BATCH_OVER_BURST(413),
        /** The client is over its quota on the route: retry after the Retry-After the bucket gives ({@link EdgeQuotas}). */
        QUOTA_EXCEEDED(429),
        /** The instance serves as many sync requests as it serves at once: retry after a second ({@link EdgeQuotas}). */
        TOO_MANY_CONCURRENT_SYNCS(429),
        /** Not RUNNING yet, or a rebalance began while answering: retry shortly (Retry-After). */
        NOT_READY(503),
        /**
         * The owner Kafka Streams names did not answer: it died or left, and the group has not yet
         * moved its partitions (up to a session timeout). Temporary, like NOT_READY.
         */
        OWNER_UNREACHABLE(503),
        /**
         * This instance cannot show that its answer holds every record accepted more than
         * {@code jolt.query.max.staleness.ms} ago: it is cut off from the brokers, was paused, is
         * behind, or no longer holds the identity's partition. Temporary, like NOT_READY.
         */
        STALE(503);

        final int status;

        Code(int status) {
            this.status = status;
        }

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public ApiError(Code code, String message) {
        this(code, message, null);
    }

    public ApiError(Code code, String message, JsonOut.Body details) {
        super(code.status, code.wireName(), message, details);
    }
}
