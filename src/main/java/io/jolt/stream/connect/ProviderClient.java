package io.jolt.stream.connect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.DecodeException;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.sync.SyncRequest;
import io.jolt.stream.protocol.sync.SyncResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** Asks one provider's {@code POST /jolt/device-writer/sync} (PROTOCOL §8) and types its answer. */
final class ProviderClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a provider answered. */
    sealed interface Answer {
        record Page(SyncResponse response, int bytes) implements Answer {}

        /** 410 {@code history_forgotten}: the device's history up to the floor is gone there. */
        record Forgotten(String deviceId, CompactedHistory.Floor floor) implements Answer {}

        /**
         * No usable answer: {@code reason} is the metric's label (unreachable, http_503, unreadable, ...);
         * {@code retryAfter}, how long the provider asked to be left alone (its 429's or 503's {@code Retry-After}).
         */
        record Failed(String reason, String message, Optional<Duration> retryAfter) implements Answer {
            Failed(String reason, String message) {
                this(reason, message, Optional.empty());
            }
        }
    }

    private final HttpClient http;
    private final Duration timeout;
    private final Optional<String> authorization;

    ProviderClient(Duration timeout, Optional<String> authorization) {
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        this.timeout = timeout;
        this.authorization = authorization;
    }

    Answer ask(String provider, SyncRequest request) throws InterruptedException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(provider + "/jolt/device-writer/sync")).timeout(timeout)
                .header("Content-Type", SyncRequest.MEDIA_TYPE).POST(HttpRequest.BodyPublishers.ofByteArray(request.encode()));
        authorization.ifPresent(a -> builder.header("Authorization", a));
        HttpResponse<byte[]> response;
        try {
            response = http.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            return new Answer.Failed("unreachable", provider + " did not answer: " + e);
        }
        Answer answer = typed(provider, response.statusCode(), response.body());
        if (answer instanceof Answer.Failed failed) {
            return new Answer.Failed(failed.reason(), failed.message(), retryAfter(response.headers().firstValue("Retry-After"), Instant.now()));
        }
        return answer;
    }

    /** The longest a provider may ask to be left alone: a longer Retry-After is taken as this. */
    static final Duration LONGEST_RETRY_AFTER = Duration.ofHours(1);

    /** A {@code Retry-After} header: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); empty when absent or unreadable. */
    static Optional<Duration> retryAfter(Optional<String> header, Instant now) {
        if (header.isEmpty()) {
            return Optional.empty();
        }
        String value = header.get().strip();
        try {
            Duration wait = value.chars().allMatch(Character::isDigit) && !value.isEmpty()
                    ? Duration.ofSeconds(Long.parseLong(value))
                    : Duration.between(now, ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
            return Optional.of(wait.isNegative() ? Duration.ZERO : wait.compareTo(LONGEST_RETRY_AFTER) > 0 ? LONGEST_RETRY_AFTER : wait);
        } catch (NumberFormatException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    static Answer typed(String provider, int status, byte[] body) {
        if (status == 200) {
            try {
                return new Answer.Page(SyncResponse.decode(body), body.length);
            } catch (DecodeException e) {
                return new Answer.Failed("unreadable", provider + " answered something that is not a sync response: " + e.getMessage());
            }
        }
        String text = new String(body, StandardCharsets.UTF_8);
        if (status == 410) {
            Optional<Answer> forgotten = forgotten(text);
            if (forgotten.isPresent()) {
                return forgotten.get();
            }
        }
        return new Answer.Failed("http_" + status, provider + " answered HTTP " + status + ": " + (text.length() > 300 ? text.substring(0, 300) + "..." : text));
    }

    private static Optional<Answer> forgotten(String text) {
        try {
            JsonNode error = JSON.readTree(text).path("error");
            JsonNode details = error.path("details");
            if (!"history_forgotten".equals(error.path("code").asText())) {
                return Optional.empty();
            }
            return Optional.of(new Answer.Forgotten(details.path("device_id").asText(), new CompactedHistory.Floor(
                    Long.parseUnsignedLong(details.path("floor_sequence").asText()), Hash.fromHex(details.path("floor_entry_hash").asText()))));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
