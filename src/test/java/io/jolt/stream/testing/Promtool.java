package io.jolt.stream.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus' own linter, {@code promtool check metrics}, over a scrape: what an operator's
 * Prometheus would find wrong with a name, a type or a help text. {@code ./jolt test} installs
 * Debian's {@code prometheus} package for it when it is missing.
 */
public final class Promtool {
    private Promtool() {}

    /** promtool's complaints about an exposition, one per line; empty when it has none. */
    public static List<String> complaints(String exposition) throws IOException, InterruptedException {
        Path promtool = Executables.require("jolt.promtool", List.of("promtool"),
                "install Prometheus' promtool (Debian: apt-get install prometheus), or run ./jolt test, which does");
        Process check = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
        try (var in = check.getOutputStream()) {
            in.write(exposition.getBytes(StandardCharsets.UTF_8));
        }
        String said = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!check.waitFor(60, TimeUnit.SECONDS)) {
            check.destroyForcibly();
            throw new IllegalStateException("promtool did not finish within 60 s");
        }
        return said.lines().filter(l -> !l.isBlank()).toList();
    }
}
