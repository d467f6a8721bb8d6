package io.jolt.stream.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The Connect source connector is a thin adapter: the protocol core verifies, the input encoder
 * encodes, and it carries only what its plugin directory packs (no HTTP server, no Streams, no
 * archive). Nothing else depends on Connect's API, which only a worker provides at run time.
 */
@AnalyzeClasses(packages = "io.jolt.stream", importOptions = ImportOption.DoNotIncludeTests.class)
class ConnectorBoundaryTest {
    @ArchTest
    static final ArchRule theConnectorUsesOnlyTheCoreTheEncoderAndTheVerifiers = noClasses()
            .that().resideInAPackage("io.jolt.stream.connect..")
            .should().dependOnClassesThat().resideInAnyPackage("io.jolt.stream.api..", "io.jolt.stream.cli..", "io.jolt.stream.archive..",
                    "io.jolt.stream.analytics..", "io.jolt.stream.processor..", "io.jolt.stream.service..", "io.jolt.stream.workload..",
                    "io.jolt.stream.bench..", "io.jolt.stream.local..", "org.apache.kafka.streams..",
                    "io.javalin..", "io.micrometer..", "org.rocksdb..")
            .because("the plugin packs the core, the encoder, the registry client and the verifiers, nothing of the service");

    @ArchTest
    static final ArchRule onlyTheConnectorKnowsConnect = noClasses()
            .that().resideOutsideOfPackage("io.jolt.stream.connect..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka.connect..", "io.jolt.stream.connect..")
            .because("connect-api is provided by a worker, never on the service's classpath");
}
