package io.jolt.stream.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jolt.stream.testing.OpenApiContract;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The HTTP contracts are valid OpenAPI 3.1 to a real parser, the jar serves them as they are,
 * and the checker the API tests hold every answer to refuses an answer that drifts from them.
 */
class OpenApiDocumentTest {
    static Stream<OpenApiContract> contracts() {
        return Stream.of(OpenApiContract.SERVICE, OpenApiContract.ARCHIVE);
    }

    @ParameterizedTest
    @MethodSource("contracts")
    void aRealParserReadsTheDocumentAsOpenApi31WithoutAComplaint(OpenApiContract contract) {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(contract.document().toString(), null, options);
        assertThat(parsed.getMessages()).as(contract.resource()).isEmpty();
        assertThat(parsed.getOpenAPI().getOpenapi()).startsWith("3.1.");
        assertThat(parsed.getOpenAPI().getPaths()).isNotEmpty();
        parsed.getOpenAPI().getPaths().forEach((path, item) -> item.readOperations().forEach(operation ->
                assertThat(operation.getResponses().keySet()).as(path).anyMatch(status -> status.startsWith("2"))));
    }

    @ParameterizedTest
    @MethodSource("contracts")
    void theJarServesTheDocumentByteForByte(OpenApiContract contract) throws Exception {
        byte[] served = new OpenApiDocument("/" + contract.resource()).get();
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(served)).isEqualTo(contract.document());
        assertThat(contract.operations()).contains("GET /openapi.json", "GET /health", "GET /health/live", "GET /health/ready", "GET /metrics");
    }

    @Test
    void anAnswerAsTheDocumentSaysPasses() {
        OpenApiContract.SERVICE.check("GET", "/health", 200, Optional.of("application/json"),
                bytes("{\"streams_state\":\"RUNNING\",\"ready\":true}"));
        OpenApiContract.SERVICE.check("GET", "/v1/identities/jolt1abc/resolve", 400, Optional.of("application/json; charset=utf-8"),
                bytes("{\"error\":{\"code\":\"path_not_canonical\",\"message\":\"the path is not canonical\"}}"));
    }

    @Test
    void anAnswerThatDriftsFailsNamingHow() {
        OpenApiContract service = OpenApiContract.SERVICE;
        assertThatThrownBy(() -> service.check("GET", "/health", 200, Optional.of("application/json"), bytes("{\"streams_state\":\"RUNNING\",\"ready\":\"yes\"}")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("/ready");
        assertThatThrownBy(() -> service.check("GET", "/health", 200, Optional.of("application/json"), bytes("{\"streams_state\":\"RUNNING\"}")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("ready");
        assertThatThrownBy(() -> service.check("GET", "/health", 418, Optional.of("application/json"), bytes("{}")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("declares no such status");
        assertThatThrownBy(() -> service.check("GET", "/health", 200, Optional.of("text/html"), bytes("<p>ok</p>")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("text/html");
        assertThatThrownBy(() -> service.check("GET", "/v1/nowhere", 200, Optional.of("application/json"), bytes("{}")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("only 404");
        assertThatThrownBy(() -> service.check("GET", "/v1/identities/jolt1abc/resolve", 400, Optional.of("application/json"),
                bytes("{\"error\":{\"message\":\"no code\"}}")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("code");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
