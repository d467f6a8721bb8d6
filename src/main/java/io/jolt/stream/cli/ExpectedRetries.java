package io.jolt.stream.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Keeps Kafka's expected transaction retries off the console (the log file still has them).
 *
 * <p>Under exactly-once with transactions v2 (KIP-890, the default since Kafka 4.0) a producer adds
 * a partition to its transaction by producing to it. When a stream thread's next transaction
 * begins while the broker is still writing the previous one's commit markers (most often in the
 * first seconds, as the producers' first transactions complete), the partition leader answers the
 * first batch with {@code CONCURRENT_TRANSACTIONS}, and the batches already in flight behind it
 * with {@code OUT_OF_ORDER_SEQUENCE_NUMBER}; the producer retries them all and they land, in order,
 * in the same transaction (KAFKA-14904, KAFKA-18575, KAFKA-18654 discuss the mechanism). Nothing is
 * lost or doubled. Any other warning, and these errors when the producer gives up, stay visible.
 */
public final class ExpectedRetries extends Filter<ILoggingEvent> {
    static final String SENDER = "org.apache.kafka.clients.producer.internals.Sender";

    @Override
    public FilterReply decide(ILoggingEvent event) {
        if (!SENDER.equals(event.getLoggerName()) || event.getLevel() != Level.WARN) {
            return FilterReply.NEUTRAL;
        }
        String message = event.getFormattedMessage();
        boolean retried = message.contains(", retrying (");
        boolean expected = message.endsWith("Error: CONCURRENT_TRANSACTIONS") || message.endsWith("Error: OUT_OF_ORDER_SEQUENCE_NUMBER");
        return retried && expected ? FilterReply.DENY : FilterReply.NEUTRAL;
    }
}
