package io.jolt.stream.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.protocol.sync.SyncRequest;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A provider that answers 429 or 503 with {@code Retry-After} is asked again no sooner than it
 * asked, and no later than the backoff would have waited anyway when it asked for less.
 */
class RetryAfterTest {
    static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");
    static final Backoff BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1));

    @Test
    void delaySecondsAndHttpDatesAreRead() {
        assertThat(ProviderClient.retryAfter(Optional.of("30"), NOW)).hasValue(Duration.ofSeconds(30));
        assertThat(ProviderClient.retryAfter(Optional.of("Mon, 07 Dec 2026 12:02:00 GMT"), NOW)).hasValue(Duration.ofMinutes(2));
        assertThat(ProviderClient.retryAfter(Optional.of("Mon, 07 Dec 2026 11:00:00 GMT"), NOW)).as("a date past").hasValue(Duration.ZERO);
    }

    @Test
    void noHeaderOrAnUnreadableOneAsksForNothing() {
        assertThat(ProviderClient.retryAfter(Optional.empty(), NOW)).isEmpty();
        assertThat(ProviderClient.retryAfter(Optional.of("soon"), NOW)).isEmpty();
        assertThat(ProviderClient.retryAfter(Optional.of("-5"), NOW)).isEmpty();
        assertThat(ProviderClient.retryAfter(Optional.of(""), NOW)).isEmpty();
    }

    @Test
    void aProviderCannotParkAFollowerForMoreThanAnHour() {
        assertThat(ProviderClient.retryAfter(Optional.of("86400"), NOW)).hasValue(ProviderClient.LONGEST_RETRY_AFTER);
    }

    @Test
    void aRefusalCarriesItsRetryAfter() throws Exception {
        HttpServer provider = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        provider.createContext("/jolt/device-writer/sync", exchange -> {
            byte[] body = "{\"error\":{\"code\":\"quota_exceeded\"}}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Retry-After", "7");
            exchange.sendResponseHeaders(429, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        provider.start();
        try {
            String url = "http://127.0.0.1:" + provider.getAddress().getPort();
            ProviderClient.Answer answer = new ProviderClient(Duration.ofSeconds(5), Optional.empty())
                    .ask(url, new SyncRequest(TestIdentity.named("retry-after").id(), 3, 2, List.of(), List.of(), List.of()));

            assertThat(answer).isInstanceOfSatisfying(ProviderClient.Answer.Failed.class, failed -> {
                assertThat(failed.reason()).isEqualTo("http_429");
                assertThat(failed.retryAfter()).hasValue(Duration.ofSeconds(7));
            });
        } finally {
            provider.stop(0);
        }
    }

    @Test
    void theWaitIsTheLongerOfTheBackoffAndWhatTheProviderAsked() {
        assertThat(BACKOFF.after(1, Optional.of(Duration.ofSeconds(30)))).isEqualTo(Duration.ofSeconds(30));
        assertThat(BACKOFF.after(1, Optional.of(Duration.ofMinutes(5)))).as("past the backoff's own ceiling too").isEqualTo(Duration.ofMinutes(5));
        assertThat(BACKOFF.after(4, Optional.of(Duration.ofSeconds(2)))).as("the backoff, doubled three times").isEqualTo(Duration.ofSeconds(8));
        assertThat(BACKOFF.after(3, Optional.empty())).isEqualTo(Duration.ofSeconds(4));
    }
}
