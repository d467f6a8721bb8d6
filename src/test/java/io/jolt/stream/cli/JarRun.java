package io.jolt.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged jar run as a user runs it ({@code java -jar target/jolt.jar ...} from the
 * repository root, with JOLT_HOME set as ./jolt sets it): its exit code and what it printed.
 * A run that does not end within five minutes fails the test.
 */
record JarRun(int exitCode, String printed) {
    /** What the run printed on standard output (the progress bars on standard error are discarded). */
    static JarRun stdout(String... args) throws IOException, InterruptedException {
        Path home = Path.of("").toAbsolutePath();
        Path jar = home.resolve("target/jolt.jar");
        assertThat(jar).exists();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile());
        builder.environment().put("JOLT_HOME", home.toString());
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).as(printed).isTrue();
        return new JarRun(process.exitValue(), printed);
    }
}
