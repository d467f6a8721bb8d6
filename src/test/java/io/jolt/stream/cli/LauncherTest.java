package io.jolt.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's choice of JVM options: on Java 25 or later a bench records an AOT cache and every
 * later command starts from it, as long as it is newer than the jar; on older Javas nothing is
 * added. Given a copy of {@code ./jolt} beside a jar and a stand-in java that records its arguments.
 */
class LauncherTest {
    @TempDir
    Path home;
    Path jar;
    Path aot;

    @BeforeEach
    void givenALauncherAJarAndAStandInJava() throws Exception {
        Files.copy(Path.of("jolt"), home.resolve("jolt"));
        Files.createDirectories(home.resolve("target"));
        jar = Files.createFile(home.resolve("target/jolt.jar"));
        aot = home.resolve("target/jolt.aot");
        Path java = home.resolve("java");
        Files.writeString(java, """
                #!/usr/bin/env bash
                if [ "$1" = -version ]; then echo "openjdk version \\"$FAKE_RELEASE\\" 2026-04-21 LTS" >&2; exit 0; fi
                echo "$@" > "$(dirname "$0")/args"
                """);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void onJava17NothingIsAdded() throws Exception {
        assertThat(launch("17.0.15", "bench")).isEqualTo("-jar " + jar + " bench");
    }

    @Test
    void onJava25ABenchRecordsTheCache() throws Exception {
        assertThat(launch("25.0.3", "bench", "--entries", "1000")).isEqualTo("-XX:AOTCacheOutput=" + aot + " -jar " + jar + " bench --entries 1000");
    }

    @Test
    void onJava25EveryCommandStartsFromACacheNewerThanTheJar() throws Exception {
        givenCacheAged(+10);
        assertThat(launch("25.0.3", "demo")).isEqualTo("-XX:AOTCache=" + aot + " -jar " + jar + " demo");
    }

    @Test
    void aCacheOlderThanTheJarIsNotUsedAndABenchRecordsItAgain() throws Exception {
        givenCacheAged(-10);
        assertThat(launch("25.0.3", "demo")).isEqualTo("-jar " + jar + " demo");
        assertThat(launch("25.0.3", "bench")).startsWith("-XX:AOTCacheOutput=" + aot + " ");
        assertThat(aot).as("the stale cache is removed before it is recorded again").doesNotExist();
    }

    private void givenCacheAged(int secondsAfterTheJar) throws Exception {
        Instant built = Instant.now().minusSeconds(60);
        Files.setLastModifiedTime(jar, FileTime.from(built));
        Files.createFile(aot);
        Files.setLastModifiedTime(aot, FileTime.from(built.plusSeconds(secondsAfterTheJar)));
    }

    /** The arguments the launcher passed to java. */
    private String launch(String release, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(concat(home.resolve("jolt").toString(), command)).redirectErrorStream(true);
        builder.environment().put("JOLT_JAVA", home.resolve("java").toString());
        builder.environment().put("FAKE_RELEASE", release);
        builder.environment().remove("JOLT_JAVA_OPTS");
        Process process = builder.start();
        String printed = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(printed).isZero();
        return Files.readString(home.resolve("args")).strip();
    }

    private static List<String> concat(String first, String... rest) {
        return Stream.concat(Stream.of(first), Stream.of(rest)).toList();
    }
}
