package io.jolt.stream.api;

import io.javalin.http.Context;
import io.jolt.stream.processor.Freshness;
import io.jolt.stream.processor.IdentityQueries;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Which instance answers for an identity, and passing a request on to it (or, for questions
 * every instance answers a part of, asking them all): the instance whose
 * stream task owns the identity's partition ({@code application.server}), found by Kafka
 * Streams' key metadata. A forwarded request carries {@link #FORWARDED}, which stops any further hop.
 */
final class OwnerRouting {
    static final String FORWARDED = "X-Jolt-Forwarded";

    private final KafkaStreams streams;
    private final IdentityQueries queries;
    private final HostInfo self;
    private final String scheme;
    private final HttpClient client;
    private final Duration timeout;

    /**
     * @param self this instance's application.server, or null when it runs alone; @param tls how instances reach each other when set;
     * @param timeout how long another instance may take to connect and answer: a partitioned one never does, and the client must
     *     hear so (503), not wait
     */
    OwnerRouting(KafkaStreams streams, IdentityQueries queries, HostInfo self, Optional<HttpTls> tls, Duration timeout) {
        this.streams = streams;
        this.queries = queries;
        this.self = self;
        this.timeout = timeout;
        this.scheme = tls.isPresent() ? "https" : "http";
        HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(timeout);
        tls.ifPresent(t -> client.sslContext(t.clientContext()));
        this.client = client.build();
    }

    /** Queries need the stores: refused (503) until Kafka Streams is RUNNING. */
    void requireRunning() {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            throw new ApiError(ApiError.Code.NOT_READY, "the service is " + streams.state() + ", not RUNNING");
        }
    }

    /** The identity's partition of the inputs, as Kafka Streams' metadata has it (refused, 503, while it has none: rebalancing). */
    KeyQueryMetadata owner(String identity) {
        KeyQueryMetadata owner = queries.owner(identity);
        if (owner == null || owner.partition() < 0) {
            throw new ApiError(ApiError.Code.NOT_READY, "no owner is known for this identity's partition yet (rebalancing)");
        }
        return owner;
    }

    /**
     * Whether another instance of the application forwarded the request: it is marked
     * {@link #FORWARDED} with a member's {@code application.server}, and it comes from one of that
     * host's addresses. Any client can write the mark; this is what lets an instance trust it
     * where it spares the request something (a sync token the receiving instance charged). Where
     * the mark only holds the request to this instance's own part, a client that writes it only
     * narrows its own answer, and the mark is followed as sent, so that no setting can make
     * instances ask each other in a circle.
     */
    boolean forwardedByPeer(Context ctx) {
        String mark = ctx.header(FORWARDED);
        if (mark == null || self == null || streams.state() != KafkaStreams.State.RUNNING) {
            return false;
        }
        return isPeer(mark, ctx.ip(), streams.metadataForAllStreamsClients().stream().map(StreamsMetadata::hostInfo).toList());
    }

    /** Whether {@code mark} names one of {@code members} and {@code ip} is one of that member's host's addresses. */
    static boolean isPeer(String mark, String ip, List<HostInfo> members) {
        for (HostInfo host : members) {
            if (mark.equals(host.host() + ":" + host.port()) && isAddressOf(host.host(), ip)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isAddressOf(String host, String ip) {
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (address.getHostAddress().equals(ip)) {
                    return true;
                }
            }
            return false;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** The other instance that owns the identity, or empty when this one answers (or was forwarded to). */
    Optional<HostInfo> remoteOwner(Context ctx, KeyQueryMetadata owner) {
        if (self == null || ctx.header(FORWARDED) != null) {
            return Optional.empty();
        }
        HostInfo active = owner.activeHost();
        boolean remote = active != null && !active.equals(HostInfo.unavailable()) && !active.equals(self);
        return remote ? Optional.of(active) : Optional.empty();
    }

    /**
     * Asks every other instance of the application the same GET (marked {@link #FORWARDED}, so
     * each answers with its own part alone) and returns their answers' bodies. Empty when this
     * instance runs alone or was itself asked by another. An instance that does not answer 200
     * fails the whole question: a part missing would make the sum wrong, not smaller.
     */
    List<byte[]> askOthers(Context ctx) {
        if (self == null || ctx.header(FORWARDED) != null) {
            return List.of();
        }
        String query = ctx.queryString() == null ? "" : "?" + ctx.queryString();
        Map<HostInfo, CompletableFuture<HttpResponse<byte[]>>> asked = new LinkedHashMap<>();
        for (StreamsMetadata instance : streams.metadataForAllStreamsClients()) {
            HostInfo host = instance.hostInfo();
            if (!host.equals(self) && !host.equals(HostInfo.unavailable())) {
                URI uri = URI.create(scheme + "://" + host.host() + ":" + host.port() + ctx.path() + query);
                HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).header(FORWARDED, self.host() + ":" + self.port()).GET().build();
                asked.put(host, client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()));
            }
        }
        List<byte[]> parts = new ArrayList<>();
        asked.forEach((host, answer) -> parts.add(part(host, answer)));
        return parts;
    }

    private static byte[] part(HostInfo host, CompletableFuture<HttpResponse<byte[]>> answer) {
        try {
            HttpResponse<byte[]> response = answer.get();
            if (response.statusCode() != 200) {
                throw new ApiError(ApiError.Code.OWNER_UNREACHABLE, "instance " + host + " answered " + response.statusCode() + " for its part: "
                        + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
            }
            return response.body();
        } catch (ExecutionException e) {
            throw new ApiError(ApiError.Code.OWNER_UNREACHABLE, "instance " + host + " did not answer for its part: " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiError(ApiError.Code.OWNER_UNREACHABLE, "interrupted while asking " + host);
        }
    }

    /** Headers of the owner's answer a client needs besides its status, type and body: when to retry, and how current it is. */
    private static final List<String> RELAYED = List.of("Retry-After", Freshness.AGE_HEADER, Freshness.POSITION_HEADER);

    /** Passes the request on to the owner, once, and answers with the owner's answer. */
    void forward(Context ctx, HostInfo owner, HttpRequest.BodyPublisher body, String method) {
        String query = ctx.queryString() == null ? "" : "?" + ctx.queryString();
        URI uri = URI.create(scheme + "://" + owner.host() + ":" + owner.port() + ctx.path() + query);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout)
                .header(FORWARDED, self.host() + ":" + self.port()).method(method, body);
        if (ctx.contentType() != null) {
            request.header("Content-Type", ctx.contentType());
        }
        // The owner checks the route's role as this instance did: every instance has the same credentials.
        String authorization = ctx.header("Authorization");
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            RELAYED.forEach(name -> response.headers().firstValue(name).ifPresent(value -> ctx.header(name, value)));
            ctx.status(response.statusCode()).contentType(response.headers().firstValue("Content-Type").orElse("application/json"))
                    .result(response.body());
        } catch (HttpTimeoutException e) {
            throw new ApiError(ApiError.Code.OWNER_UNREACHABLE, "the instance owning this identity (" + owner + ") did not answer within "
                    + timeout.toMillis() + " ms (jolt.http.forward.timeout.ms)");
        } catch (IOException e) {
            throw new ApiError(ApiError.Code.OWNER_UNREACHABLE, "the instance owning this identity (" + owner + ") did not answer: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiError(ApiError.Code.OWNER_UNREACHABLE, "interrupted while asking " + owner);
        }
    }
}
