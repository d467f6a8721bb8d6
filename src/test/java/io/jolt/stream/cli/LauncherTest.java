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
 * And {@code ./jolt test}: the suite's browser and Node.js installed when missing, or what to
 * install said, then the third-party reader's npm packages, then Maven's verify; given stand-ins for
 * every tool on a PATH of the test's own.
 */
class LauncherTest {
    @TempDir
    Path home;
    Path jar;
    Path aot;

    @BeforeEach
    void givenALauncherAJarAndAStandInJava() throws Exception {
        Files.copy(Path.of("jolt"), home.resolve("jolt"));
        Files.createDirectories(home.resolve("src/test/js"));
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

    @Test
    void testInstallsTheReadersPackagesThenRunsTheSuiteWithItsArgumentsWhenTheToolsAreThere() throws Exception {
        Path bin = givenTools("mvn", "chromium", "chromedriver", "promtool", "iptables", "node", "npm");
        Tool run = tool(bin, "test", "-Dit.test=none");
        assertThat(run.exit()).as(run.printed()).isZero();
        assertThat(Files.readString(bin.resolve("npm.args")).strip()).isEqualTo(home.resolve("src/test/js") + ": ci --no-audit --no-fund");
        assertThat(Files.readString(bin.resolve("mvn.args")).strip()).isEqualTo(home + ": -B verify -Dit.test=none");
        assertThat(run.printed()).as("one line for the install, npm's own output only when it fails")
                .isEqualTo("jolt test: installing the third-party reader's npm packages (npm ci in src/test/js)\n");
    }

    @Test
    void testInstallsWhatIsMissingWithOneAptGet() throws Exception {
        Path bin = givenTools("mvn");
        script(bin.resolve("apt-get"), """
                echo "$*" >> "$(dirname "$0")/apt-get.args"
                if [ "$1" = install ]; then # then node and npm are on the PATH
                  for tool in node npm; do printf '#!/bin/sh\\n' > "$(dirname "$0")/$tool"; %s +x "$(dirname "$0")/$tool"; done
                fi""".formatted(which("chmod")));
        Tool run = tool(bin, "test");
        assertThat(run.exit()).as(run.printed()).isZero();
        assertThat(Files.readAllLines(bin.resolve("apt-get.args"))).containsExactly("update -qq", "install -y -qq chromium chromium-driver prometheus iptables nodejs npm");
        assertThat(run.printed()).startsWith("jolt test: installing chromium chromium-driver prometheus iptables nodejs npm (apt-get) for the tests that drive them\n");
        assertThat(bin.resolve("mvn.args")).exists();
    }

    @Test
    void testSaysWhatToInstallAndStopsWhenItCannotInstall() throws Exception {
        Path bin = givenTools("mvn");
        Tool run = tool(bin, "test");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.printed()).contains("needs Chromium and ChromeDriver", "apt-get install chromium chromium-driver",
                "needs Node.js 18 or later and npm", "apt-get install nodejs npm", "needs Prometheus' promtool", "apt-get install prometheus", "need iptables", "apt-get install iptables");
        assertThat(bin.resolve("mvn.args")).as("the suite is not run half-equipped").doesNotExist();
    }

    @Test
    void testStopsOnANodeOlderThan18() throws Exception {
        Path bin = givenTools("mvn", "chromium", "chromedriver", "promtool", "iptables", "npm");
        script(bin.resolve("node"), "[ \"$1\" = --version ] && echo v12.22.12; exit 1"); // Debian 11's
        Tool run = tool(bin, "test");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.printed()).contains("needs Node.js 18 or later; the PATH has v12.22.12");
        assertThat(bin.resolve("npm.args")).doesNotExist();
        assertThat(bin.resolve("mvn.args")).doesNotExist();
    }

    @Test
    void testShowsNpmsOutputAndStopsWhenTheReadersPackagesDoNotInstall() throws Exception {
        Path bin = givenTools("mvn", "chromium", "chromedriver", "promtool", "iptables", "node");
        script(bin.resolve("npm"), "echo 'npm error code ETIMEDOUT'; exit 1");
        Tool run = tool(bin, "test");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.printed()).contains("npm error code ETIMEDOUT", "npm ci failed in src/test/js");
        assertThat(bin.resolve("mvn.args")).doesNotExist();
    }

    @Test
    void chaosRunsTheClusterTestWithItsLengthAndSeed() throws Exception {
        Path bin = givenTools("mvn", "iptables");
        passThrough(bin, "od", "tr", "grep", "mkdir");
        Tool run = tool(bin, "chaos", "--minutes", "1", "--seed", "42");
        assertThat(run.exit()).as(run.printed()).isZero();
        assertThat(run.printed()).startsWith("jolt chaos: 1 minutes, seed 42;");
        assertThat(Files.readString(bin.resolve("mvn.args"))).contains("verify", "-Dit.test=ChaosIT#aFixedSchedule", "-Djolt.chaos.minutes=1",
                "-Djolt.chaos.seed=42");
    }

    @Test
    void chaosRefusesAnOptionItDoesNotKnow() throws Exception {
        Path bin = givenTools("mvn", "iptables");
        passThrough(bin, "od", "tr", "grep", "mkdir");
        Tool run = tool(bin, "chaos", "--hours", "2");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.printed()).contains("unknown option --hours");
        assertThat(bin.resolve("mvn.args")).doesNotExist();
    }

    private static void passThrough(Path bin, String... names) throws Exception {
        for (String name : names) {
            script(bin.resolve(name), "exec " + which(name) + " \"$@\"");
        }
    }

    record Tool(int exit, String printed) {}

    /**
     * A PATH holding only stand-ins that append "DIRECTORY: ARGUMENTS" to NAME.args, and what the
     * launcher needs besides.
     */
    private Path givenTools(String... names) throws Exception {
        Path bin = Files.createDirectories(home.resolve("bin"));
        for (String name : names) {
            script(bin.resolve(name), "echo \"$(pwd): $*\" >> \"$(dirname \"$0\")/" + name + ".args\"");
        }
        script(bin.resolve("id"), "echo 0"); // as root, so apt-get needs no sudo
        for (String needed : List.of("bash", "dirname")) {
            script(bin.resolve(needed), "exec " + which(needed) + " \"$@\"");
        }
        return bin;
    }

    private static void script(Path file, String line) throws Exception {
        Files.writeString(file, "#!/bin/sh\n" + line + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Tool tool(Path bin, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(concat(home.resolve("jolt").toString(), command)).redirectErrorStream(true);
        builder.environment().put("PATH", bin.toString());
        Process process = builder.start();
        String printed = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Tool(process.exitValue(), printed);
    }

    private static String which(String name) throws Exception {
        return Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator)).map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable).findFirst().orElseThrow().toRealPath().toString();
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
