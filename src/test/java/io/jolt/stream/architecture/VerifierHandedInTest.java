package io.jolt.stream.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.jolt.stream.crypto.Verifiers;

/**
 * The signature check is chosen where a process is put together (the service, the connector
 * task, the bench) and handed to whatever verifies; the protocol core, the processor and the HTTP
 * API never pick one themselves, so a test or a second service in one JVM can give them another.
 */
@AnalyzeClasses(packages = "io.jolt.stream", importOptions = ImportOption.DoNotIncludeTests.class)
class VerifierHandedInTest {
    @ArchTest
    static final ArchRule onlyTheStartUpChoosesTheVerifier = noClasses()
            .that().resideInAnyPackage("io.jolt.stream.protocol..", "io.jolt.stream.processor..", "io.jolt.stream.api..",
                    "io.jolt.stream.archive..", "io.jolt.stream.wire..")
            .should().dependOnClassesThat().areAssignableTo(Verifiers.class)
            .because("the verifier is passed in, not looked up");
}
