package io.jolt.stream.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A clone is all a user has: every link of the documents leads to a file of the repository, and
 * no file names a place outside it (a folder beside the checkout, or a folder of one machine).
 */
class SelfContainedRepositoryTest {
    static final Path ROOT = Path.of("").toAbsolutePath();
    /** [text](target) and [text]: target, the two link forms the documents use. */
    static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)|^\\[[^\\]]+\\]:\\s*(\\S+)", Pattern.MULTILINE);

    @Test
    void everyRelativeLinkOfTheDocumentsResolvesToAFileOfTheRepository() throws IOException {
        List<Path> documents = files().filter(p -> p.toString().endsWith(".md")).toList();
        assertThat(documents).contains(ROOT.resolve("README.md"), ROOT.resolve("src/site/markdown/protocol.md"));
        List<String> broken = new ArrayList<>();
        for (Path document : documents) {
            Matcher link = LINK.matcher(Files.readString(document));
            while (link.find()) {
                String target = link.group(1) != null ? link.group(1) : link.group(2);
                if (target.matches("^[a-z][a-z0-9+.-]*:.*") || target.startsWith("#")) {
                    continue; // a URL or an anchor in the same document
                }
                Path file = document.getParent().resolve(target.replaceFirst("#.*$", "")).normalize();
                if (!file.startsWith(ROOT) || !Files.exists(file)) {
                    broken.add(ROOT.relativize(document) + " -> " + target);
                }
            }
        }
        assertThat(broken).as("links to nothing, or outside the repository").isEmpty();
    }

    @Test
    void noFileNamesAPlaceOutsideTheRepository() throws IOException {
        // Spelt in pieces, so that this file does not name them itself.
        List<String> beside = List.of(".." + "/shared", "/" + "work/", "/usr/lib/" + "jvm", "/" + "root/", "/" + "home/");
        List<String> naming = new ArrayList<>();
        for (Path file : files().toList()) {
            String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            beside.stream().filter(text::contains).forEach(place -> naming.add(ROOT.relativize(file) + " names " + place));
        }
        assertThat(naming).isEmpty();
    }

    /** The repository's own files: not the build's output, not git's, not the packages npm installs for the JS reader. */
    static Stream<Path> files() throws IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(ROOT)) {
            all = walk.filter(Files::isRegularFile)
                    .filter(p -> !ROOT.relativize(p).startsWith("target") && !ROOT.relativize(p).startsWith(".git"))
                    .filter(p -> !ROOT.relativize(p).startsWith(Path.of("src", "test", "js", "node_modules")))
                    .filter(p -> !p.getFileName().toString().endsWith(".bin"))
                    .toList();
        }
        return all.stream();
    }
}
