package io.jolt.stream.processor;

import java.util.Comparator;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;

/**
 * How current this instance's stores are for one partition of the inputs: every input record the
 * brokers held at {@code asOf} (ms since the epoch) has been processed here, and {@code position}
 * is what the partition's task had committed then, per input topic.
 */
public record Freshness(int partition, long asOf, Map<TopicPartition, Long> position) {
    /** The header of a 200 answer giving its age in milliseconds. */
    public static final String AGE_HEADER = "Jolt-Age-Ms";
    /** The header of a 200 answer giving {@link #positionHeader()}. */
    public static final String POSITION_HEADER = "Jolt-Position";

    public long ageMillis(long now) {
        return Math.max(0, now - asOf);
    }

    /** The position as a header value: {@code jolt.authority.v2-3=56,jolt.entries.v2-3=1234}, by topic. */
    public String positionHeader() {
        return position.entrySet().stream().sorted(Map.Entry.comparingByKey(Comparator.comparing(TopicPartition::toString)))
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }
}
