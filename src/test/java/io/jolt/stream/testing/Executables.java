package io.jolt.stream.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds a tool the tests drive the way a shell would: a system property names it outright,
 * otherwise the first of its usual names on the PATH. Never a fixed path of one machine.
 */
public final class Executables {
    private Executables() {}

    /**
     * The tool, or a failure that says what to install: {@code ./jolt test} installs the
     * suite's tools when they are missing, or prints the same advice and stops.
     */
    public static Path require(String property, List<String> names, String install) {
        return find(property, names).orElseThrow(() -> new IllegalStateException(
                "none of " + names + " on the PATH (or -D" + property + "=FILE): " + install));
    }

    static Optional<Path> find(String property, List<String> names) {
        String configured = System.getProperty(property);
        if (configured != null) {
            return Optional.of(Path.of(configured)).filter(Files::isExecutable);
        }
        String path = System.getenv().getOrDefault("PATH", "");
        return names.stream()
                .flatMap(name -> Stream.of(path.split(File.pathSeparator)).filter(dir -> !dir.isEmpty()).map(dir -> Path.of(dir, name)))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
