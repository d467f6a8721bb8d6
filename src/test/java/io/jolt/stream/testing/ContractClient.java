package io.jolt.stream.testing;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * An {@link HttpClient} that holds every answer it receives to an {@link OpenApiContract}: the
 * API tests send through it, so a status, content type or field that drifts from the document
 * fails the test that met it.
 */
public final class ContractClient extends HttpClient {
    private final HttpClient http;
    private final OpenApiContract contract;

    public ContractClient(HttpClient http, OpenApiContract contract) {
        this.http = http;
        this.contract = contract;
    }

    public static ContractClient of(OpenApiContract contract) {
        return new ContractClient(HttpClient.newHttpClient(), contract);
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
        HttpResponse<T> answer = http.send(request, handler);
        contract.check(answer);
        return answer;
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        return http.sendAsync(request, handler).thenApply(this::checked);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
            HttpResponse.PushPromiseHandler<T> pushes) {
        return http.sendAsync(request, handler, pushes).thenApply(this::checked);
    }

    private <T> HttpResponse<T> checked(HttpResponse<T> answer) {
        contract.check(answer);
        return answer;
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return http.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return http.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return http.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return http.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return http.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return http.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return http.authenticator();
    }

    @Override
    public Version version() {
        return http.version();
    }

    @Override
    public Optional<Executor> executor() {
        return http.executor();
    }
}
