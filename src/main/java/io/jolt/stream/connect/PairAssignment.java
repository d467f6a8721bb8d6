package io.jolt.stream.connect;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.common.utils.Utils;

/**
 * Splits the (provider, identity) pairs over the tasks by rendezvous hashing: each pair goes to
 * the task with the highest hash of (pair, task). The split depends only on the pair and the task
 * count, never on the order or the other pairs: adding or removing an identity moves no other
 * pair, and going from n to n+1 tasks moves only the pairs the new task wins (about 1/(n+1)),
 * each to the new task. Every move costs a task an offset read, never a full pull.
 */
final class PairAssignment {
    private PairAssignment() {}

    static List<List<FollowedPair>> split(Collection<FollowedPair> pairs, int tasks) {
        List<List<FollowedPair>> out = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            out.add(new ArrayList<>());
        }
        pairs.stream().sorted().forEach(p -> out.get(taskOf(p, tasks)).add(p));
        return out;
    }

    static int taskOf(FollowedPair pair, int tasks) {
        int best = 0;
        long bestWeight = Long.MIN_VALUE;
        for (int t = 0; t < tasks; t++) {
            long weight = weight(pair, t);
            if (weight > bestWeight) {
                best = t;
                bestWeight = weight;
            }
        }
        return best;
    }

    private static long weight(FollowedPair pair, int task) {
        byte[] key = (pair.line() + "\n" + task).getBytes(StandardCharsets.UTF_8);
        // murmur2 (Kafka's partitioner hash), spread over 64 bits so that ties are practically impossible
        long h = Utils.murmur2(key) & 0xffffffffL;
        return h << 32 | (Utils.murmur2((task + "\n" + pair.line()).getBytes(StandardCharsets.UTF_8)) & 0xffffffffL);
    }
}
