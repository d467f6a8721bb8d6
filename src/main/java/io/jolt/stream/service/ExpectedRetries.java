package io.jolt.stream.service;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps two kinds of Kafka's expected retries off the console (the log file still has them).
 *
 * <p>Transactions. Under exactly-once with transactions v2 (KIP-890, the default since Kafka 4.0)
 * a producer adds a partition to its transaction by producing to it. When a stream thread's next
 * transaction begins while the broker is still writing the previous one's commit markers (most
 * often in the first seconds, as the producers' first transactions complete), the partition leader
 * answers the first batch with {@code CONCURRENT_TRANSACTIONS}, and the batches already in flight
 * behind it with {@code OUT_OF_ORDER_SEQUENCE_NUMBER}; the producer retries them all and they land,
 * in order, in the same transaction (KAFKA-14904, KAFKA-18575, KAFKA-18654 discuss the mechanism).
 * Nothing is lost or doubled. Only a transactional producer's retries are kept off: a plain
 * idempotent producer retrying {@code OUT_OF_ORDER_SEQUENCE_NUMBER} may be stuck (KAFKA-14359).
 *
 * <p>Internal topics. A stream thread subscribes to its application's repartition topics before
 * the group's leader has created them, and its consumer warns that they are unknown until they
 * exist. Any other unknown topic stays visible, as does every other warning, and these errors when
 * the producer gives up.
 */
public final class ExpectedRetries extends Filter<ILoggingEvent> {
    static final String SENDER = "org.apache.kafka.clients.producer.internals.Sender";
    static final String NETWORK_CLIENT = "org.apache.kafka.clients.NetworkClient";
    private static final Pattern UNKNOWN_TOPICS = Pattern.compile("reported a recoverable issue with correlation id \\d+ : \\{(.*)}$");
    private static final Pattern INTERNAL_TOPIC_UNKNOWN = Pattern.compile("[\\w.-]+-repartition=UNKNOWN_TOPIC_OR_PARTITION");

    @Override
    public FilterReply decide(ILoggingEvent event) {
        if (event.getLevel() != Level.WARN) {
            return FilterReply.NEUTRAL;
        }
        String message = event.getFormattedMessage();
        boolean expected = switch (event.getLoggerName()) {
            case SENDER -> transactionRetry(message);
            case NETWORK_CLIENT -> internalTopicsNotYetCreated(message);
            default -> false;
        };
        return expected ? FilterReply.DENY : FilterReply.NEUTRAL;
    }

    private static boolean transactionRetry(String message) {
        boolean retried = message.contains(", retrying (") && message.contains("transactionalId=");
        return retried && (message.endsWith("Error: CONCURRENT_TRANSACTIONS") || message.endsWith("Error: OUT_OF_ORDER_SEQUENCE_NUMBER"));
    }

    private static boolean internalTopicsNotYetCreated(String message) {
        Matcher topics = UNKNOWN_TOPICS.matcher(message);
        return topics.find() && Arrays.stream(topics.group(1).split(",\\s*")).allMatch(t -> INTERNAL_TOPIC_UNKNOWN.matcher(t).matches());
    }
}
