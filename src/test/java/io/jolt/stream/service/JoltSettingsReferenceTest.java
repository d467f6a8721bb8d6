package io.jolt.stream.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The configuration reference of operations.md is the one generated from the ConfigDef. */
class JoltSettingsReferenceTest {
    static final Path OPERATIONS = Path.of("src", "site", "markdown", "operations.md");
    static final String START = "<!-- config-reference:start -->\n";
    static final String END = "<!-- config-reference:end -->";

    @Test
    void theTableInOperationsMdIsTheGeneratedOne() throws IOException {
        // given the document and the table the definition generates
        String document = Files.readString(OPERATIONS);
        String generated = JoltSettings.markdownTable();
        int start = document.indexOf(START);
        int end = document.indexOf(END);
        assertThat(start).as("operations.md has " + START.strip()).isNotNegative();
        assertThat(end).as("operations.md has " + END + " after the start marker").isGreaterThan(start);
        if (Boolean.getBoolean("jolt.updateDocs")) {
            document = document.substring(0, start + START.length()) + generated + document.substring(end);
            Files.writeString(OPERATIONS, document);
            end = document.indexOf(END);
        }
        // expect the two to be the same
        assertThat(document.substring(start + START.length(), end))
                .as("the configuration reference in " + OPERATIONS + " differs from JoltSettings.DEFINITION; regenerate it with "
                        + "mvn -B -o test -Dtest=JoltSettingsReferenceTest -Djolt.updateDocs=true (or paste ./jolt config reference between the markers)")
                .isEqualTo(generated);
    }

    @Test
    void everySettingIsARowAndTheProducerPrefixTheLast() {
        // given the generated table
        String table = JoltSettings.markdownTable();
        // expect a row per defined setting, the header and the prefix row
        assertThat(table.lines()).hasSize(JoltSettings.DEFINITION.names().size() + 3);
        JoltSettings.DEFINITION.names().forEach(name -> assertThat(table).contains("| `" + name + "` |"));
        assertThat(table).contains("| `jolt.live.held.max` | long | `10000` | `[0,...]` | medium |");
        assertThat(table.lines().reduce((a, b) -> b).orElseThrow()).startsWith("| `" + JoltConfig.BOLT_PRODUCER_PREFIX + "*` | prefix |");
    }
}
