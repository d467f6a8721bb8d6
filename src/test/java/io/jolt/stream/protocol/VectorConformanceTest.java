package io.jolt.stream.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.json.Bundle;
import io.jolt.stream.protocol.json.MergedStateJson;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** merge(bundle) equals expected.json for every scenario kind, as JSON values with exact integers. */
class VectorConformanceTest {
    /** Integers as BigInteger so values above 2^63 compare exactly. */
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

    static Stream<String> kinds() {
        return Vectors.kinds().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void mergedStateEqualsExpected(String kind) throws IOException {
        JsonNode expected = JSON.readTree(Files.readAllBytes(Vectors.expected(kind)));
        assertThat(merge(Vectors.lines(kind))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void everyLineOfEveryVectorCanBeTiedToAnIdentity(String kind) {
        Bundle bundle = new Bundle();
        Vectors.lines(kind).forEach(bundle::add);
        assertThat(bundle.skipped()).isEmpty();
    }

    static JsonNode merge(List<byte[]> lines) throws IOException {
        Bundle bundle = new Bundle();
        lines.forEach(bundle::add);
        return JSON.readTree(MergedStateJson.write(bundle.merge(SignatureCheck.DEFINITION)));
    }
}
