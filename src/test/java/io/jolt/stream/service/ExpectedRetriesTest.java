package io.jolt.stream.service;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.FilterReply;
import org.junit.jupiter.api.Test;

/** The console filter: Kafka's expected retries (transactions, internal topics being created) are kept off the console, nothing else is. */
class ExpectedRetriesTest {
    static final String RETRY = "[Producer clientId=app-StreamThread-1-producer, transactionalId=app-1] Got error produce response with"
            + " correlation id 69 on topic-partition jolt.rejected.v2-2, retrying (2147483646 attempts left). Error: ";

    final ExpectedRetries filter = new ExpectedRetries();
    final LoggerContext context = new LoggerContext();

    FilterReply decide(String logger, Level level, String message) {
        return filter.decide(new LoggingEvent(getClass().getName(), context.getLogger(logger), level, message, null, null));
    }

    @Test
    void concurrentTransactionsAndTheOutOfOrderBatchesBehindThemAreRetriesThatLand() {
        assertThat(decide(ExpectedRetries.SENDER, Level.WARN, RETRY + "CONCURRENT_TRANSACTIONS")).isEqualTo(FilterReply.DENY);
        assertThat(decide(ExpectedRetries.SENDER, Level.WARN, RETRY + "OUT_OF_ORDER_SEQUENCE_NUMBER")).isEqualTo(FilterReply.DENY);
    }

    @Test
    void everyOtherWarningStaysVisible() {
        assertThat(decide(ExpectedRetries.SENDER, Level.WARN, RETRY + "NOT_LEADER_OR_FOLLOWER")).isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide(ExpectedRetries.SENDER, Level.WARN, "Got error produce response in correlation id 7 on topic-partition t-0,"
                + " splitting and retrying (2 attempts left). Error: MESSAGE_TOO_LARGE")).isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide(ExpectedRetries.SENDER, Level.ERROR, RETRY + "CONCURRENT_TRANSACTIONS")).isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide("io.jolt.stream.archive.KafkaBolt", Level.WARN, RETRY + "CONCURRENT_TRANSACTIONS")).isEqualTo(FilterReply.NEUTRAL);
    }

    @Test
    void aPlainIdempotentProducerRetryingOutOfOrderStaysVisible() {
        String plain = "[Producer clientId=producer-5] Got error produce response with correlation id 22 on topic-partition t-3,"
                + " retrying (2147483645 attempts left). Error: OUT_OF_ORDER_SEQUENCE_NUMBER";
        assertThat(decide(ExpectedRetries.SENDER, Level.WARN, plain)).as("may be stuck: KAFKA-14359").isEqualTo(FilterReply.NEUTRAL);
    }

    static final String METADATA = "[Consumer clientId=app-StreamThread-1-consumer, groupId=app] The metadata response from the cluster"
            + " reported a recoverable issue with correlation id 2 : ";

    @Test
    void aRepartitionTopicNotYetCreatedIsExpected() {
        assertThat(decide(ExpectedRetries.NETWORK_CLIENT, Level.WARN, METADATA + "{app-analytics-facts-repartition=UNKNOWN_TOPIC_OR_PARTITION}"))
                .isEqualTo(FilterReply.DENY);
    }

    @Test
    void anyOtherUnknownTopicStaysVisible() {
        assertThat(decide(ExpectedRetries.NETWORK_CLIENT, Level.WARN, METADATA + "{jolt.entries.v2=UNKNOWN_TOPIC_OR_PARTITION}"))
                .isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide(ExpectedRetries.NETWORK_CLIENT, Level.WARN,
                METADATA + "{app-analytics-facts-repartition=UNKNOWN_TOPIC_OR_PARTITION, jolt.entries.v2=UNKNOWN_TOPIC_OR_PARTITION}"))
                .isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide(ExpectedRetries.NETWORK_CLIENT, Level.WARN, METADATA + "{app-analytics-facts-repartition=TOPIC_AUTHORIZATION_FAILED}"))
                .isEqualTo(FilterReply.NEUTRAL);
    }

    @Test
    void aProducerThatGivesUpIsNoRetry() {
        assertThat(decide(ExpectedRetries.SENDER, Level.WARN, "[Producer clientId=p] Got error produce response on topic-partition t-0,"
                + " not retrying. Error: OUT_OF_ORDER_SEQUENCE_NUMBER")).isEqualTo(FilterReply.NEUTRAL);
    }
}
