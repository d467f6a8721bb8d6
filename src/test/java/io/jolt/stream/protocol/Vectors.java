package io.jolt.stream.protocol;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The shared conformance vectors (../shared/vectors, or -Djolt.vectors=DIR). */
public final class Vectors {
    private Vectors() {}

    /**
     * -Djolt.vectors, else JOLT_VECTORS, else the first {@code shared/vectors} beside the checkout
     * or one of its ancestors (a clone elsewhere than ../ still finds the workplace's copy).
     */
    public static Path root() {
        String configured = System.getProperty("jolt.vectors", System.getenv("JOLT_VECTORS"));
        if (configured != null) {
            Path path = Path.of(configured);
            if (!Files.isDirectory(path)) {
                throw new IllegalStateException("conformance vectors not found at " + path.toAbsolutePath());
            }
            return path;
        }
        List<Path> tried = new ArrayList<>();
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("vectors");
            tried.add(candidate);
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        Path workplace = Path.of("/work/shared/vectors");
        if (Files.isDirectory(workplace)) {
            return workplace;
        }
        throw new IllegalStateException("conformance vectors not found (tried " + tried + " and " + workplace
                + "); set -Djolt.vectors=DIR or JOLT_VECTORS");
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
