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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bolt's crash window is closed: a `jolt run` JVM whose archive acknowledgements are held back
 * for seconds is killed with SIGKILL the moment its input offsets are committed, and every entry
 * eligible in the merge of the input is nevertheless in the archive. The same kill of the same
 * service without the commit barrier ({@link ServiceWithoutCommitBarrier}) loses archive writes
 * without a name: the offsets committed with the writes still in flight.
 */
@ExtendWith(RealKafka.class)
class ArchiveCrashWindowIT {
    @Test
    void killedRightAfterItsCommitTheServiceHasArchivedOrNamedEveryEligibleEntry(KafkaBroker broker) throws Exception {
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        List<Object> records = workload();
        StreamHarness harness = given(broker, registry, records);

        killRightAfterItsCommit(broker, harness, "jolt-it-crash-window", service -> ForkedService.start("crash-window-service", service));

        OutputAudit audit = OutputAudit.of(harness, registry, records);
        assertThat(audit.eligible()).isGreaterThan(500);
        audit.assertClean(ExpectedLosses.none("the acknowledgements are late, not refused: every write lands, and the commit waits for them"));
        System.out.println("[crash window] the merge's verdicts, each reported: " + audit.verdicts());
        System.out.println("[crash window] " + audit.row("service kill -9 right after a commit, archive acks held 4 s", "0"));
    }

    @Test
    void withoutTheCommitBarrierTheSameKillLosesArchiveWritesWithoutAName(KafkaBroker broker) throws Exception {
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        List<Object> records = workload();
        StreamHarness harness = given(broker, registry, records);

        killRightAfterItsCommit(broker, harness, "jolt-it-crash-window-unbarriered",
                service -> ForkedService.start("crash-window-unbarriered", service, ServiceWithoutCommitBarrier.class));

        OutputAudit audit = OutputAudit.of(harness, registry, records);
        System.out.printf("[crash window, no barrier] %,d of %,d eligible entries neither archived nor named%n", audit.archiveMissing(),
                audit.eligible());
        assertThat(audit.stateEqual()).as("the live side is exactly-once all the same").isTrue();
        assertThat(audit.lossesNamed()).as("nothing failed, so nothing was named").isZero();
        assertThat(audit.archiveMissing()).as("eligible entries lost without a name").isPositive();
    }

    private static List<Object> workload() {
        Workload.Generated workload = Workload.generate(new Workload.Shape(40, 3, 8, 5), n -> { });
        List<Object> records = new ArrayList<>(workload.authority());
        records.addAll(workload.entries());
        return records;
    }

    /** Fresh topics, as the service will find them, holding the whole input before the service starts. */
    private static StreamHarness given(KafkaBroker broker, InMemorySchemaRegistry registry, List<Object> records) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        try (var admin = broker.admin()) {
            TopicGuard.ensure(admin, Topics.load(2, null));
        }
        harness.produce(VectorRecords.ofRecords(records, registry));
        return harness;
    }

    interface Launch {
        ForkedService start(ForkedService.Settings settings) throws Exception;
    }

    /**
     * Launches the service, its bolt's acknowledgements held back 4 s by
     * {@link DelayedAcknowledgements}, and kills it the moment it has committed all its input.
     * Each test has an application of its own: its changelogs are not the other's.
     */
    private static void killRightAfterItsCommit(KafkaBroker broker, StreamHarness harness, String application, Launch launch)
            throws Exception {
        ForkedService service = launch.start(ForkedService.settings(broker.bootstrapServers(), application,
                        StreamHarness.tempStateDir(application), 2)
                .with(Map.of(JoltConfig.BOLT_PRODUCER_PREFIX + "interceptor.classes", DelayedAcknowledgements.class.getName()))
                .withJvm(List.of("-Djolt.test.ack.delay.ms=4000")));
        try {
            harness.awaitProcessed(application, Duration.ofSeconds(120));
        } finally {
            service.kill(); // SIGKILL: no clean close, no flush
        }
    }
}
