package io.jolt.stream.testing;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Widens the bolt's crash window for a test: the first acknowledgement after a quiet spell is
 * held for {@code -Djolt.test.ack.delay.ms} on the producer's network thread, so the archive's
 * writes stay in flight for that long after they were sent.
 */
public final class DelayedAcknowledgements implements ProducerInterceptor<Object, Object> {
    private final long delayMs = Long.getLong("jolt.test.ack.delay.ms", 3000);
    private long lastDelayEnded;

    @Override
    public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
        return record;
    }

    @Override
    public synchronized void onAcknowledgement(RecordMetadata metadata, Exception exception) {
        long now = System.currentTimeMillis();
        if (now - lastDelayEnded > delayMs) {
            try {
                Thread.sleep(delayMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lastDelayEnded = System.currentTimeMillis();
        }
    }

    @Override
    public void close() {}

    @Override
    public void configure(Map<String, ?> configs) {}
}
