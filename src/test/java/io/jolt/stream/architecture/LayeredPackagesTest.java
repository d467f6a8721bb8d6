package io.jolt.stream.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The map of the house, one way down: the commands, then what they run (benches, the local
 * stack, the service), then the HTTP API and the archive's writer and service, then the
 * processor and the shared HTTP base, then the wire, then the core (protocol, analytics, crypto,
 * workload). The Avro classes generated from {@code schemas/} are below them all. A folder's
 * name says its role, and a dependency against this order fails the build.
 */
@AnalyzeClasses(packages = "io.jolt.stream", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeredPackagesTest {
    @ArchTest
    static final ArchRule dependenciesPointDown = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("cli").definedBy("io.jolt.stream.cli..")
            .layer("bench").definedBy("io.jolt.stream.bench..")
            .layer("local").definedBy("io.jolt.stream.local..")
            .layer("service").definedBy("io.jolt.stream.service..")
            .layer("api").definedBy("io.jolt.stream.api..")
            .layer("bolt").definedBy("io.jolt.stream.archive")
            .layer("archive service").definedBy("io.jolt.stream.archive.service..")
            .layer("replay").definedBy("io.jolt.stream.archive.replay..")
            .layer("connect").definedBy("io.jolt.stream.connect..")
            .layer("processor").definedBy("io.jolt.stream.processor..")
            .layer("http").definedBy("io.jolt.stream.http..")
            .layer("wire").definedBy("io.jolt.stream.wire..")
            .layer("core").definedBy("io.jolt.stream.protocol..", "io.jolt.stream.analytics..", "io.jolt.stream.crypto..",
                    "io.jolt.stream.workload..")
            .whereLayer("cli").mayNotBeAccessedByAnyLayer()
            .whereLayer("bench").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("local").mayOnlyBeAccessedByLayers("cli", "bench")
            .whereLayer("service").mayOnlyBeAccessedByLayers("cli", "bench", "local")
            .whereLayer("api").mayOnlyBeAccessedByLayers("service")
            .whereLayer("bolt").mayOnlyBeAccessedByLayers("service", "bench", "cli")
            .whereLayer("archive service").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("replay").mayOnlyBeAccessedByLayers("archive service", "cli")
            .whereLayer("connect").mayNotBeAccessedByAnyLayer()
            .whereLayer("processor").mayOnlyBeAccessedByLayers("cli", "bench", "local", "service", "api", "bolt")
            .whereLayer("http").mayOnlyBeAccessedByLayers("api", "archive service")
            .whereLayer("wire").mayOnlyBeAccessedByLayers("cli", "bench", "local", "service", "api", "bolt", "archive service", "replay",
                    "connect", "processor")
            .because("a newcomer should guess from the folder names where a thing lives, and a change below never needs one above");
}
