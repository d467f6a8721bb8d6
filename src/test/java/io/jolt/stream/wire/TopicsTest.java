package io.jolt.stream.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** topology/topics.yaml: every topic the service writes or reads, as the guard will create it. */
class TopicsTest {
    private final Map<String, Topics.Spec> specs = Topics.load(null, null).stream()
            .collect(Collectors.toMap(Topics.Spec::name, s -> s));

    @Test
    void everyTopicOfTheServiceIsDeclared() {
        assertThat(specs).containsOnlyKeys(Topics.AUTHORITY, Topics.ENTRIES, Topics.STATE, Topics.CONFLICTS, Topics.REJECTED,
                Topics.ARCHIVE, Topics.ARCHIVE_LOSSES, Topics.COMPACTIONS, Topics.ANALYTICS);
    }

    /**
     * Every topic's value schema is seeded, so that two JVMs on the embedded registry (a forked
     * service and a reader of its losses) agree on every id; the losses topic once was not.
     */
    @Test
    void everyTopicHasItsSchemaSeededUnderAStableId() {
        assertThat(TopicSchemas.bySubject().keySet()).containsExactlyInAnyOrderElementsOf(specs.keySet().stream().map(t -> t + "-value").toList());
        var registry = TopicSchemas.seededRegistry();
        assertThat(registry.register(Topics.AUTHORITY + "-value", io.jolt.stream.avro.AuthorityRecord.getClassSchema())).isEqualTo(1);
        assertThat(registry.register(Topics.ARCHIVE_LOSSES + "-value", io.jolt.stream.avro.ArchiveLoss.getClassSchema())).isEqualTo(8);
    }

    @Test
    void theArchiveNeverForgetsAndTheStateIsCompacted() {
        assertThat(specs.get(Topics.ARCHIVE).config())
                .containsEntry("cleanup.policy", "delete").containsEntry("retention.ms", "-1").containsEntry("retention.bytes", "-1");
        assertThat(specs.get(Topics.STATE).config()).containsEntry("cleanup.policy", "compact");
    }

    @Test
    void overridesApplyToEveryTopicAtOnce() {
        List<Topics.Spec> overridden = Topics.load(8, (short) 3);
        assertThat(overridden).allSatisfy(s -> {
            assertThat(s.partitions()).isEqualTo(8);
            assertThat(s.replication()).isEqualTo((short) 3);
        });
    }
}
