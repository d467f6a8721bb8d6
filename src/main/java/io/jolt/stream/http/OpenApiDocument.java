package io.jolt.stream.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * An OpenAPI document shipped in the jar, read once and served byte for byte at
 * {@code GET /openapi.json}: the contract the API tests hold both the routes and every answer to.
 */
public final class OpenApiDocument {
    private final byte[] bytes;

    /** Reads it now: a jar without it fails at start, not at the first request. */
    public OpenApiDocument(String resource) {
        this.bytes = load(resource);
    }

    public byte[] get() {
        return bytes;
    }

    private static byte[] load(String resource) {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar has no " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
