package io.jolt.stream.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The protocol core is pure: bytes in, values out. Everything else is an adapter over it. */
@AnalyzeClasses(packages = "io.jolt.stream", importOptions = ImportOption.DoNotIncludeTests.class)
class ProtocolPurityTest {
    @ArchTest
    static final ArchRule protocolKnowsNoKafkaHttpOrFiles = noClasses()
            .that().resideInAPackage("io.jolt.stream.protocol..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "org.apache.kafka..", "java.net..", "java.net.http..", "com.sun.net.httpserver..",
                    "java.nio.file..", "java.nio.channels..", "picocli..", "org.slf4j..")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.File")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileInputStream")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileOutputStream")
            .because("the protocol package is bytes in, values out (src/site/markdown/architecture.md)");

    @ArchTest
    static final ArchRule protocolDependsOnNothingElseOfOurs = noClasses()
            .that().resideInAPackage("io.jolt.stream.protocol..")
            .should().dependOnClassesThat().resideOutsideOfPackages("io.jolt.stream.protocol..", "java..", "org.bouncycastle..",
                    "com.fasterxml.jackson.core..")
            .because("everything depends on the protocol core; it depends only on the JDK, BouncyCastle and a JSON tokenizer");

    @ArchTest
    static final ArchRule theJdksOwnEd25519IsNeverUsed = noClasses()
            .should().dependOnClassesThat().resideInAnyPackage("java.security.interfaces..", "sun.security.ec..")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.security.Signature")
            .because("the JDK's Ed25519 is about 10x slower than BouncyCastle's");

    @ArchTest
    static final ArchRule theNativeBindingStaysBehindTheVerifierSeam = noClasses()
            .that().resideOutsideOfPackage("io.jolt.stream.crypto..")
            .should().dependOnClassesThat().resideInAnyPackage("com.sun.jna..", "com.goterl..")
            .because("libsodium is one Verifier among others, in its own adapter package (PROTOCOL §2's rule is the core's)");
}
