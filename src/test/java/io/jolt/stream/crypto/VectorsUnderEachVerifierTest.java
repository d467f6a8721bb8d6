package io.jolt.stream.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.BouncyCastleVerifier;
import io.jolt.stream.protocol.PublicKey;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.protocol.Verifier;
import io.jolt.stream.protocol.json.Bundle;
import io.jolt.stream.protocol.json.MergedStateJson;
import java.nio.file.Files;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every vector kind (signature_edges above all) merges to its expected.json whichever verifier the process uses. */
class VectorsUnderEachVerifierTest {
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

    static Stream<Arguments> kindsUnderEachVerifier() {
        return Stream.<Verifier>of(BouncyCastleVerifier.INSTANCE, Verifiers.nativeFirst())
                .flatMap(v -> Vectors.kinds().stream().map(kind -> Arguments.of(v, kind)));
    }

    @ParameterizedTest(name = "{1} under {0}")
    @MethodSource("kindsUnderEachVerifier")
    void mergedStateEqualsExpected(Verifier verifier, String kind) throws Exception {
        assertThat(merged(kind, new SignatureCheck(verifier))).isEqualTo(expected(kind));
    }

    @Test
    void libsodiumAloneDrawsTheLineElsewhereAndFailsTheEdgeVector() throws Exception {
        NativeFirstVerifier nativeFirst = Verifiers.nativeFirst();
        Verifier libsodiumOnly = new Verifier() {
            @Override
            public boolean verify(PublicKey key, byte[] message, byte[] signature) {
                return nativeFirst.libsodiumAccepts(key.bytes(), message, signature);
            }

            @Override
            public String name() {
                return "libsodium-only";
            }
        };
        assertThat(merged("signature_edges", new SignatureCheck(libsodiumOnly))).isNotEqualTo(expected("signature_edges"));
    }

    private static JsonNode merged(String kind, SignatureCheck check) throws Exception {
        Bundle bundle = new Bundle();
        Vectors.lines(kind).forEach(bundle::add);
        return JSON.readTree(MergedStateJson.write(bundle.merge(check)));
    }

    private static JsonNode expected(String kind) throws Exception {
        return JSON.readTree(Files.readAllBytes(Vectors.expected(kind)));
    }
}
