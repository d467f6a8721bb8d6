package io.jolt.stream.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A token bucket per client: the burst at once, then the rate, each client apart, and a bounded memory of clients. */
class ClientBucketsTest {
    final ManualClock clock = new ManualClock();
    final ClientBuckets buckets = new ClientBuckets(new Quota(10, 20), clock);

    @Test
    void theBurstAtOnceThenATokenEveryTenthOfASecond() {
        // given a client that took its whole burst
        assertThat(buckets.take("a", 20)).isEmpty();
        // expect: nothing more now, and it is told how long until what it asks for is there
        assertThat(buckets.take("a", 1)).hasValue(Duration.ofMillis(100));
        assertThat(buckets.take("a", 5)).as("a refusal takes nothing").hasValue(Duration.ofMillis(500));
        // when a tenth of a second passes, expect one token back (greedy refill), not ten
        clock.advance(Duration.ofMillis(100));
        assertThat(buckets.take("a", 2)).isPresent();
        assertThat(buckets.take("a", 1)).isEmpty();
        // and after two seconds idle, the burst again, never more
        clock.advance(Duration.ofSeconds(5));
        assertThat(buckets.take("a", 20)).isEmpty();
        assertThat(buckets.take("a", 1)).isPresent();
    }

    @Test
    void eachClientHasABucketOfItsOwn() {
        assertThat(buckets.take("a", 20)).isEmpty();
        assertThat(buckets.take("a", 1)).isPresent();
        assertThat(buckets.take("b", 20)).as("b is not held back by a").isEmpty();
    }

    @Test
    void aCostBeyondTheBurstIsTheCallersToRefuse() {
        assertThatThrownBy(() -> buckets.take("a", 21)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("burst of 20");
    }

    @Test
    void theLeastRecentlySeenClientIsForgottenBeyondTheBoundAndComesBackFull() {
        // given a drained client, then as many other clients as are remembered
        assertThat(buckets.take("drained", 20)).isEmpty();
        for (int i = 0; i < ClientBuckets.CLIENTS; i++) {
            buckets.take("client " + i, 1);
        }
        // expect: it was forgotten, so it starts again with a full bucket (no clock moved)
        assertThat(buckets.take("drained", 20)).isEmpty();
        // while one seen lately is remembered, drained
        assertThat(buckets.take("client " + (ClientBuckets.CLIENTS - 1), 20)).isEqualTo(Optional.of(Duration.ofMillis(100)));
    }
}
