package io.jolt.stream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.kafka.serde.InMemorySchemaRegistry;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.OrderIndependenceProperties;
import io.jolt.stream.protocol.SingletonState;
import io.jolt.stream.protocol.json.Bundle;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The topology's incremental hot path and its identity re-evaluation together compute exactly
 * what the protocol core computes from the set of records, whatever the arrival order.
 */
class HotPathEquivalenceProperties {
    @Property(tries = 40)
    void streamedStateEqualsTheMergeOfTheSet(@ForAll long seed, @ForAll Random random) {
        List<byte[]> lines = OrderIndependenceProperties.rearrange(OrderIndependenceProperties.GeneratedHistory.lines(seed), random);
        Map<String, String> streamed = JoltTopologyTest.liveTable(JoltTopologyTest.run(VectorRecords.of(lines, InMemorySchemaRegistry.seeded())).state());
        assertThat(streamed).isEqualTo(merged(lines));
    }

    static Map<String, String> merged(List<byte[]> lines) {
        Bundle bundle = new Bundle();
        lines.forEach(bundle::add);
        Map<String, String> out = new TreeMap<>();
        bundle.merge().forEach(state -> {
            for (SingletonState s : state.singletons()) {
                out.put(state.identity() + "|" + s.path(), (s.isTombstoned() ? "tombstoned" : "present") + " " + s.contentId() + " "
                        + s.head().deviceId() + "#" + Long.toUnsignedString(s.head().deviceSequence()) + ":" + Hex.encode(s.head().entryHash().bytes())
                        + " conflicts=" + s.conflicts().size());
            }
        });
        return out;
    }
}
