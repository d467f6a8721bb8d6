package io.jolt.stream.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The bolt never feeds back: a replay may be read, never authored from. These rules fail the
 * build when live-path code depends on the replay reader, or the reader gains a way to write.
 */
@AnalyzeClasses(packages = "io.jolt.stream", importOptions = ImportOption.DoNotIncludeTests.class)
class BoltFirewallTest {
    @ArchTest
    static final ArchRule liveCodeNeverDependsOnReplay = noClasses()
            .that().resideInAnyPackage("io.jolt.stream.wire..", "io.jolt.stream.processor..", "io.jolt.stream.service..", "io.jolt.stream.protocol..",
                    "io.jolt.stream.api..", "io.jolt.stream.http..", "io.jolt.stream.workload..")
            .or().haveFullyQualifiedName("io.jolt.stream.cli.WriteCommand")
            .or().haveFullyQualifiedName("io.jolt.stream.cli.AuthorizeCommand")
            .or().haveFullyQualifiedName("io.jolt.stream.cli.RevokeCommand")
            .or().haveFullyQualifiedName("io.jolt.stream.cli.IdentityDirectory")
            .should().dependOnClassesThat().resideInAnyPackage("io.jolt.stream.archive.replay..", "io.jolt.stream.archive.service..")
            .because("a device re-seeded from a replay missing its tail would re-sign used sequences (the bolt note)");

    @ArchTest
    static final ArchRule replayHasNoWayToWrite = noClasses()
            .that().resideInAPackage("io.jolt.stream.archive.replay..")
            .should().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.clients.producer.KafkaProducer")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.clients.producer.Producer")
            .orShould().dependOnClassesThat().resideInAPackage("org.apache.kafka.streams..")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.jolt.stream.wire.RecordIngest")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.jolt.stream.processor.JoltTopology")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.jolt.stream.protocol.DeviceWriter")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.jolt.stream.archive.KafkaBolt")
            .because("the replay reader reads with a consumer only");

    @ArchTest
    static final ArchRule archiveServiceHasNoWayToWriteTheLiveSide = noClasses()
            .that().resideInAPackage("io.jolt.stream.archive.service..")
            .should().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.clients.producer.KafkaProducer")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.clients.producer.Producer")
            .orShould().dependOnClassesThat().resideInAnyPackage("io.jolt.stream.api..", "io.jolt.stream.service..", "io.jolt.stream.processor.store..")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.jolt.stream.wire.RecordIngest")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.jolt.stream.processor.JoltTopology")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.jolt.stream.service.JoltService")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.jolt.stream.archive.KafkaBolt")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.jolt.stream.protocol.DeviceWriter")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.jolt.stream.protocol.SigningKey")
            .because("the archive service reads the archive into an index of its own; its only topology is"
                    + " jolt.archive.v2 into that index (ArchiveIndexTopologyTest), and it has no producer, no"
                    + " live store and no way to sign");

    @ArchTest
    static final ArchRule theBoltNeverReads = noClasses()
            .that().resideInAPackage("io.jolt.stream.archive")
            .should().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.clients.consumer.KafkaConsumer")
            .because("the bolt is fed operations and never feeds anything back");
}
