package io.jolt.stream.wire;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;

public final class VectorConformanceJson {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

    private VectorConformanceJson() {}

    public static JsonNode read(Path path) throws IOException {
        return JSON.readTree(path.toFile());
    }
}
