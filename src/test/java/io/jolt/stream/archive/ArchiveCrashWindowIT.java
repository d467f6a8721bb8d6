package io.jolt.stream.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.DelayedAcknowledgements;
import io.jolt.stream.testing.ForkedService;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OutputAudit;
import io.jolt.stream.testing.OutputAudit.ExpectedLosses;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicGuard;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import io.jolt.stream.workload.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bolt's crash window is closed: a `jolt run` JVM whose archive acknowledgements are held back
 * for seconds is killed with SIGKILL the moment its input offsets are committed, and every entry
 * eligible in the merge of the input is nevertheless in the archive or named on the losses topic.
 * (Before the commit waited for the bolt, the offsets committed with the archive writes still in
 * flight, and the kill lost them without a name.)
 */
@ExtendWith(RealKafka.class)
class ArchiveCrashWindowIT {
    static final String APPLICATION = "jolt-it-crash-window";

    @Test
    void killedRightAfterItsCommitTheServiceHasArchivedOrNamedEveryEligibleEntry(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        try (var admin = broker.admin()) {
            TopicGuard.ensure(admin, Topics.load(2, null)); // as the service will find them
        }
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        Workload.Generated workload = Workload.generate(new Workload.Shape(40, 3, 8, 5), n -> { });
        List<Object> records = new ArrayList<>(workload.authority());
        records.addAll(workload.entries());
        harness.produce(VectorRecords.ofRecords(records, registry));

        ForkedService service = startService(broker, StreamHarness.tempStateDir("crash-window"));
        try {
            harness.awaitProcessed(APPLICATION, Duration.ofSeconds(120));
        } finally {
            service.kill(); // SIGKILL: no clean close, no flush
        }

        OutputAudit audit = OutputAudit.of(harness, registry, records);
        assertThat(audit.eligible()).isGreaterThan(500);
        audit.assertClean(ExpectedLosses.none("the acknowledgements are late, not refused: every write lands, and the commit waits for them"));
        System.out.println("[crash window] " + "the merge's verdicts, each reported: " + audit.verdicts());
        System.out.println("[crash window] " + audit.row("service kill -9 right after a commit, archive acks held 4 s", "0"));
    }

    /** `jolt run` in a JVM of its own, the bolt's acknowledgements held back by {@link DelayedAcknowledgements}. */
    private static ForkedService startService(KafkaBroker broker, Path stateDir) throws Exception {
        return ForkedService.start("crash-window-service", ForkedService.settings(broker.bootstrapServers(), APPLICATION, stateDir, 2)
                .with(Map.of(JoltConfig.BOLT_PRODUCER_PREFIX + "interceptor.classes", DelayedAcknowledgements.class.getName()))
                .withJvm(List.of("-Djolt.test.ack.delay.ms=4000")));
    }
}
