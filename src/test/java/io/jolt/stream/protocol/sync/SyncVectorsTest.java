package io.jolt.stream.protocol.sync;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.protocol.json.Bundle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every sync case of the vectors' sync/ folder: the responder's bytes equal response.bin exactly. */
class SyncVectorsTest {
    static final ObjectMapper JSON = new ObjectMapper();

    /** One request/response exchange: a case folder, or one page of a walk. */
    record Exchange(String name, Path bundleDir, Path dir) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Exchange> exchanges() throws IOException {
        Path root = Vectors.root().resolve("sync");
        List<Exchange> out = new ArrayList<>();
        try (Stream<Path> cases = Files.list(root)) {
            for (Path dir : cases.filter(Files::isDirectory).sorted().toList()) {
                if (Files.exists(dir.resolve("request.bin"))) {
                    out.add(new Exchange(dir.getFileName().toString(), dir, dir));
                }
                try (Stream<Path> pages = Files.list(dir)) {
                    pages.filter(p -> p.getFileName().toString().startsWith("page-")).sorted()
                            .forEach(p -> out.add(new Exchange(dir.getFileName() + "/" + p.getFileName(), dir, p)));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exchanges")
    void responseBytesAreExact(Exchange exchange) throws IOException {
        JsonNode limits = JSON.readTree(exchange.bundleDir().resolve("limits.json").toFile());
        SyncRequest request = SyncRequest.decode(Files.readAllBytes(exchange.dir().resolve("request.bin")));
        assertThat(request.encode()).as("the request re-encodes to its bytes").isEqualTo(Files.readAllBytes(exchange.dir().resolve("request.bin")));
        MergedState state = held(exchange.bundleDir(), request.identity());
        SyncResponse response = SyncResponder.respond(state, request,
                new SyncResponder.Limits(limits.get("max_entries").asInt(), limits.get("max_bytes").asLong()));
        byte[] expected = Files.readAllBytes(exchange.dir().resolve("response.bin"));
        byte[] actual = response.encode();
        if (!java.util.Arrays.equals(actual, expected)) {
            SyncResponse want = SyncResponse.decode(expected);
            assertThat(response).as("decoded response").usingRecursiveComparison().isEqualTo(want);
            assertThat(Hex.encode(actual)).isEqualTo(Hex.encode(expected));
        }
        assertThat(SyncResponse.decode(expected).encode()).isEqualTo(expected);
    }

    static MergedState held(Path dir, String identity) {
        Bundle bundle = new Bundle();
        for (byte[] line : lines(dir.resolve("bundle.jsonl"))) {
            bundle.add(line);
        }
        return bundle.merge(SignatureCheck.DEFINITION).stream().filter(s -> s.identity().equals(identity)).findFirst().orElse(null);
    }

    static List<byte[]> lines(Path file) {
        try {
            List<byte[]> out = new ArrayList<>();
            for (String line : Files.readAllLines(file)) {
                out.add(line.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            return out;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
