package io.jolt.stream.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Given pairs and a task count, expect a split that depends on nothing else and moves few pairs when either changes. */
class PairAssignmentTest {
    private static List<FollowedPair> pairs(int identities, String... providers) {
        List<FollowedPair> out = new ArrayList<>();
        for (String p : providers) {
            for (int i = 0; i < identities; i++) {
                out.add(new FollowedPair(p, "jolt1identity" + i));
            }
        }
        return out;
    }

    @Test
    void everyPairGoesToExactlyOneTaskWhateverTheOrder() {
        List<FollowedPair> pairs = pairs(1000, "http://a:8080", "https://b.example");
        List<FollowedPair> shuffled = new ArrayList<>(pairs);
        Collections.shuffle(shuffled, new Random(7));
        List<List<FollowedPair>> split = PairAssignment.split(pairs, 4);
        assertThat(PairAssignment.split(shuffled, 4)).isEqualTo(split);
        assertThat(split.stream().mapToInt(List::size).sum()).isEqualTo(2000);
        assertThat(split).allSatisfy(share -> assertThat(share.size()).as("roughly even").isBetween(400, 600));
    }

    @Test
    void oneMoreTaskMovesOnlyThePairsItWinsAndAddingAnIdentityMovesNoOther() {
        List<FollowedPair> pairs = pairs(2000, "http://a:8080");
        int moved = 0;
        for (FollowedPair p : pairs) {
            int before = PairAssignment.taskOf(p, 4);
            int after = PairAssignment.taskOf(p, 5);
            if (before != after) {
                moved++;
                assertThat(after).as("a pair only ever moves to the new task").isEqualTo(4);
            }
        }
        assertThat(moved).as("about a fifth move").isBetween(300, 500);
        List<FollowedPair> more = new ArrayList<>(pairs);
        more.add(new FollowedPair("http://a:8080", "jolt1newcomer"));
        List<List<FollowedPair>> before = PairAssignment.split(pairs, 4);
        List<List<FollowedPair>> after = PairAssignment.split(more, 4);
        for (int t = 0; t < 4; t++) {
            List<FollowedPair> grown = new ArrayList<>(after.get(t));
            grown.remove(new FollowedPair("http://a:8080", "jolt1newcomer"));
            assertThat(grown).as("task %d keeps exactly its pairs", t).isEqualTo(before.get(t));
        }
    }

    @Test
    void theSourcePartitionKeepsOneOrderInEveryJvm() {
        assertThat(new FollowedPair("http://a:8080", "jolt1abc").sourcePartition().keySet()).containsExactly("provider", "identity");
    }

    @Test
    void aPairLineRoundTripsWithAUrlThatHasAPort() {
        FollowedPair pair = new FollowedPair("https://provider.example:8443/base", "jolt1abc");
        assertThat(FollowedPair.parse(pair.line())).isEqualTo(pair);
    }
}
