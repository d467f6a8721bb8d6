package io.jolt.stream.processor;

import static io.jolt.stream.processor.TopologyFixture.topology;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.protocol.OrderIndependenceProperties;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.VectorRecords;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The topology (its hot path, which extends a path's heads with the core's
 * {@code SingletonMerge.extend}, and its re-evaluations, which merge the whole with
 * {@code IdentityAssembler}) computes exactly what the protocol core computes from the set of
 * records, whatever the arrival order.
 */
class HotPathEquivalenceProperties {
    @Property(tries = 40)
    void streamedStateEqualsTheMergeOfTheSet(@ForAll long seed, @ForAll Random random) {
        List<byte[]> lines = OrderIndependenceProperties.rearrange(OrderIndependenceProperties.GeneratedHistory.lines(seed), random);
        assertThat(topology().given(VectorRecords.of(lines, TopicSchemas.seededRegistry())).whenProcessed().state())
                .isEqualTo(MergedTable.ofLines(lines));
    }
}
