package io.jolt.stream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.wire.TopicSchemas;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The archives the archive bench asks: the probe's operations lie evenly apart in the partition they share. */
class ArchiveBenchFeedTest {
    private static final int PARTITIONS = 4;

    @Test
    void theProbesOperationsLieEvenlyApartInItsPartitionWhateverOrderTheBoltWroteIn() {
        // Given the bolt's records read partition after partition (as a consumer of the whole topic returns them),
        // 20 operations of one identity and one each of 2,000 others.
        List<ConsumerRecord<String, byte[]>> bolted = new ArrayList<>();
        IntStream.range(0, 2_000).mapToObj(i -> "identity-" + i)
                .sorted((a, b) -> Integer.compare(ArchiveBenchFeed.partitionOf(a, PARTITIONS), ArchiveBenchFeed.partitionOf(b, PARTITIONS)))
                .forEach(key -> bolted.add(record(key)));
        IntStream.range(0, 20).forEach(i -> bolted.add(record("probe")));

        for (int copies : new int[] {1, 3}) {
            // When the archive of so many copies is laid out, then the gaps between the probe's operations,
            // counted in its own partition, differ by at most one.
            List<Integer> gaps = probeGaps(new ArchiveBenchFeed(bolted, TopicSchemas.seededRegistry()), copies);
            assertThat(gaps).hasSize(19);
            assertThat(gaps.stream().mapToInt(Integer::intValue).max().orElseThrow() - gaps.stream().mapToInt(Integer::intValue).min().orElseThrow())
                    .as("copies %d: gaps %s", copies, gaps).isLessThanOrEqualTo(1);
            assertThat(gaps.get(0)).as("copies %d", copies).isGreaterThanOrEqualTo(copies * 2_000 / PARTITIONS / 20 - 10);
        }
    }

    @Test
    void everyRecordOfEveryCopyIsWrittenOnceAndTheProbesOnlyAsTheBoltWroteThem() {
        List<ConsumerRecord<String, byte[]>> bolted = new ArrayList<>();
        IntStream.range(0, 50).forEach(i -> bolted.add(record("identity-" + i)));
        IntStream.range(0, 5).forEach(i -> bolted.add(record("probe")));
        ArchiveBenchFeed feed = new ArchiveBenchFeed(bolted, TopicSchemas.seededRegistry());
        List<String> keys = new ArrayList<>();
        feed.inWriteOrder(3, PARTITIONS, (r, copy) -> keys.add(ArchiveBenchFeed.keyOf(r, copy)));

        assertThat(feed.probe()).isEqualTo("probe");
        assertThat(keys).hasSize((int) feed.size(3)).filteredOn("probe"::equals).hasSize(5);
        assertThat(keys).filteredOn(k -> k.startsWith("identity-7")).containsExactlyInAnyOrder("identity-7", "identity-7~1", "identity-7~2");
    }

    /** The number of other records between consecutive probe operations in the probe's partition. */
    private static List<Integer> probeGaps(ArchiveBenchFeed feed, int copies) {
        int probePartition = ArchiveBenchFeed.partitionOf("probe", PARTITIONS);
        List<Integer> gaps = new ArrayList<>();
        int[] since = {-1};
        feed.inWriteOrder(copies, PARTITIONS, (r, copy) -> {
            String key = ArchiveBenchFeed.keyOf(r, copy);
            if (key.equals("probe")) {
                if (since[0] >= 0) {
                    gaps.add(since[0]);
                }
                since[0] = 0;
            } else if (since[0] >= 0 && ArchiveBenchFeed.partitionOf(key, PARTITIONS) == probePartition) {
                since[0]++;
            }
        });
        return gaps;
    }

    private static ConsumerRecord<String, byte[]> record(String key) {
        return new ConsumerRecord<>("jolt.archive.v2", 0, 0, key, new byte[0]);
    }
}
