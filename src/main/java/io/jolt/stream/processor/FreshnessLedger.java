package io.jolt.stream.processor;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;

/**
 * The arithmetic of {@link QueryFreshness}, apart from the clients that feed it: end offsets the
 * brokers gave, each with the time it was asked, and the offsets this instance's tasks have
 * committed. A partition (of every input topic at once: they are co-partitioned) is current as
 * of the latest time whose end offsets its commits reach in every input topic: every record the
 * brokers held then has been processed into this instance's stores.
 */
final class FreshnessLedger {
    /** End offsets as the brokers gave them, asked at {@code askedAt}. */
    private record Sample(long askedAt, Map<TopicPartition, Long> ends) {}

    private final List<String> inputs;
    private final Deque<Sample> samples = new ArrayDeque<>();
    private final Map<Integer, Freshness> current = new ConcurrentHashMap<>();

    FreshnessLedger(List<String> inputs) {
        this.inputs = List.copyOf(inputs);
    }

    /** End offsets the brokers answered to a question sent at {@code askedAt} (ms, the clock the answers are judged by). */
    synchronized void ends(long askedAt, Map<TopicPartition, Long> ends) {
        samples.addLast(new Sample(askedAt, Map.copyOf(ends)));
    }

    /**
     * The offsets this instance's active tasks have committed, read after the end offsets given so
     * far: partitions absent here are no longer held (their freshness is forgotten), the others are
     * current as of the latest sample their commits reach.
     */
    synchronized void commits(Map<TopicPartition, Long> committed) {
        Map<Integer, Map<TopicPartition, Long>> byPartition = new HashMap<>();
        committed.forEach((tp, offset) -> {
            if (inputs.contains(tp.topic())) {
                byPartition.computeIfAbsent(tp.partition(), p -> new HashMap<>()).put(tp, offset);
            }
        });
        current.keySet().retainAll(byPartition.keySet());
        byPartition.forEach((partition, position) -> reached(partition, position).ifPresent(askedAt -> current.merge(partition,
                new Freshness(partition, askedAt, Map.copyOf(position)), (old, now) -> now.asOf() >= old.asOf() ? now : old)));
    }

    /** The latest time whose end offsets the position reaches in every input topic. */
    private Optional<Long> reached(int partition, Map<TopicPartition, Long> position) {
        if (position.size() < inputs.size()) {
            return Optional.empty();
        }
        for (Iterator<Sample> newest = samples.descendingIterator(); newest.hasNext(); ) {
            Sample sample = newest.next();
            if (reaches(position, sample.ends(), partition)) {
                return Optional.of(sample.askedAt());
            }
        }
        return Optional.empty();
    }

    private boolean reaches(Map<TopicPartition, Long> position, Map<TopicPartition, Long> ends, int partition) {
        for (String topic : inputs) {
            TopicPartition tp = new TopicPartition(topic, partition);
            Long end = ends.get(tp);
            if (end == null || position.get(tp) < end) {
                return false;
            }
        }
        return true;
    }

    /** Forgets samples asked before {@code before}: a freshness older than that is not served anyway. The newest stays. */
    synchronized void forgetBefore(long before) {
        while (samples.size() > 1 && samples.peekFirst().askedAt() < before) {
            samples.removeFirst();
        }
    }

    /** The partition's freshness, or empty when this instance holds no task for it that has reached any sample. */
    Optional<Freshness> of(int partition) {
        return Optional.ofNullable(current.get(partition));
    }

    /** The partitions held here with a freshness. */
    Set<Integer> partitions() {
        return Set.copyOf(current.keySet());
    }
}
