package io.jolt.stream.wire;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.RealKafka;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Topics on a real broker: an existing one that contradicts its spec is refused by name, above all an expiring archive. */
@ExtendWith(RealKafka.class)
class TopicGuardIT {
    @Test
    void anExistingTopicThatContradictsItsSpecIsRefusedByName(KafkaBroker broker) throws Exception {
        try (Admin admin = broker.admin()) {
            Topics.Spec expiring = spec("archive", Map.of("retention.ms", "3600000"));
            TopicGuard.ensure(admin, List.of(expiring));
            Topics.Spec forever = new Topics.Spec(expiring.name(), 4, (short) 1, Map.of("retention.ms", "-1"));
            assertThatThrownBy(() -> TopicGuard.ensure(admin, List.of(forever)))
                    .isInstanceOf(TopicGuard.TopicContradictionException.class)
                    .hasMessageContaining(expiring.name() + ": retention.ms=3600000, topics.yaml wants -1");
        }
    }

    private static Topics.Spec spec(String name, Map<String, String> config) {
        return new Topics.Spec("guard-" + name + "-" + UUID.randomUUID(), 4, (short) 1, config);
    }
}
