package io.jolt.stream.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * No package depends on itself through others (the layers are in LayeredPackagesTest). A cycle
 * would mean two packages that can only be understood (and changed) together.
 */
@AnalyzeClasses(packages = "io.jolt.stream", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageCyclesTest {
    @ArchTest
    static final ArchRule topLevelPackagesAreFreeOfCycles = slices().matching("io.jolt.stream.(*)..").should().beFreeOfCycles()
            .because("the bolt is a port the topology needs, wired in by the composition root, not a package the topology imports");

    @ArchTest
    static final ArchRule everyPackageIsFreeOfCycles = slices().matching("io.jolt.stream.(**)").should().beFreeOfCycles();
}
