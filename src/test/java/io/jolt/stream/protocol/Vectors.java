package io.jolt.stream.protocol;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The conformance vectors: the test resources under {@code vectors/} (src/test/resources/vectors,
 * see its README), or a newer set at {@code -Djolt.vectors=DIR} or {@code JOLT_VECTORS}.
 */
public final class Vectors {
    private Vectors() {}

    public static Path root() {
        String configured = System.getProperty("jolt.vectors", System.getenv("JOLT_VECTORS"));
        if (configured != null) {
            Path path = Path.of(configured);
            if (!Files.isDirectory(path)) {
                throw new IllegalStateException("conformance vectors not found at " + path.toAbsolutePath());
            }
            return path;
        }
        URL readme = Vectors.class.getResource("/vectors/README.md");
        if (readme == null) {
            throw new IllegalStateException("conformance vectors not on the test classpath (src/test/resources/vectors)");
        }
        try {
            return Path.of(readme.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("conformance vectors at an unreadable location " + readme, e);
        }
    }

    /** Every merge scenario kind (every folder with a bundle.jsonl and expected.json). */
    public static List<String> kinds() {
        try (Stream<Path> dirs = Files.list(root())) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("bundle.jsonl")) && Files.isRegularFile(d.resolve("expected.json")))
                    .map(d -> d.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Path bundle(String kind) {
        return root().resolve(kind).resolve("bundle.jsonl");
    }

    public static Path expected(String kind) {
        return root().resolve(kind).resolve("expected.json");
    }

    /** The bundle's lines as raw bytes (a line need not be UTF-8). */
    public static List<byte[]> lines(String kind) {
        try {
            byte[] all = Files.readAllBytes(bundle(kind));
            List<byte[]> lines = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < all.length; i++) {
                if (all[i] == '\n') {
                    lines.add(java.util.Arrays.copyOfRange(all, start, i));
                    start = i + 1;
                }
            }
            if (start < all.length) {
                lines.add(java.util.Arrays.copyOfRange(all, start, all.length));
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<String> textLines(String kind) {
        return lines(kind).stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList();
    }
}
