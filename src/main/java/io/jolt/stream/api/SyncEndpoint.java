package io.jolt.stream.api;

import io.javalin.http.Context;
import io.jolt.stream.processor.IdentityQueries;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.DecodeException;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.sync.HistoryForgottenException;
import io.jolt.stream.protocol.sync.SyncRequest;
import io.jolt.stream.protocol.sync.SyncResponder;
import io.jolt.stream.protocol.sync.SyncResponse;
import io.jolt.stream.wire.RecordIngest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Delta sync (PROTOCOL §8): a binary request in, a binary response out. Records pushed inside
 * the request are produced to the input topics like any other input and do not change this
 * response. Requests for identities another instance owns are forwarded there; the owner answers
 * within the staleness bound, as for every read of an identity.
 */
final class SyncEndpoint {
    private final OwnerRouting routing;
    private final StalenessBound staleness;
    private final IdentityQueries queries;
    private final RecordIngest ingest;
    private final Counter pushedUnreadable;
    private final SyncResponder.Limits limits;

    private final HttpAccess access;

    SyncEndpoint(OwnerRouting routing, StalenessBound staleness, IdentityQueries queries, RecordIngest ingest, MeterRegistry metrics,
            HttpAccess access, SyncResponder.Limits limits) {
        this.limits = limits;
        this.routing = routing;
        this.staleness = staleness;
        this.access = access;
        this.queries = queries;
        this.ingest = ingest;
        this.pushedUnreadable = Counter.builder("jolt.api.sync.pushed.unreadable")
                .description("records pushed in sync requests that could not be read").register(metrics);
    }

    void sync(Context ctx) {
        routing.requireRunning();
        SyncRequest request;
        try {
            request = SyncRequest.decode(ctx.bodyAsBytes());
        } catch (DecodeException e) {
            throw new ApiError(ApiError.Code.BAD_SYNC_REQUEST, "not a device-writer sync request: " + e.getMessage());
        }
        // Pushed records are produced by the instance that received them, once: the owner a
        // request is forwarded to only answers it.
        if (ctx.header(OwnerRouting.FORWARDED) == null && pushes(request)) {
            access.requireToPush(ctx);
            ingestPushed(request);
        }
        KeyQueryMetadata owner = routing.owner(request.identity());
        Optional<HostInfo> remote = routing.remoteOwner(ctx, owner);
        if (remote.isPresent()) {
            routing.forward(ctx, remote.get(), HttpRequest.BodyPublishers.ofByteArray(ctx.bodyAsBytes()), "POST");
            return;
        }
        staleness.require(ctx, owner.partition());
        ctx.contentType(SyncRequest.MEDIA_TYPE).result(answer(request).encode());
    }

    private SyncResponse answer(SyncRequest request) {
        try {
            return SyncResponder.answer(queries.syncHistory(request.identity()).orElse(null), request, limits).response();
        } catch (HistoryForgottenException e) {
            throw new ApiError(ApiError.Code.HISTORY_FORGOTTEN, e.getMessage(), g -> {
                g.writeStringField("device_id", e.deviceId());
                g.writeStringField("floor_sequence", Long.toUnsignedString(e.floor().sequence()));
                g.writeStringField("floor_entry_hash", e.floor().hash().hex());
            });
        }
    }

    private static boolean pushes(SyncRequest request) {
        return !request.pushedAuthority().isEmpty() || request.pushedLogs().stream().anyMatch(log -> !log.isEmpty());
    }

    private void ingestPushed(SyncRequest request) {
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        for (SyncRequest.SignedBytes a : request.pushedAuthority()) {
            readable(() -> ingest.authority(AuthorityRecord.decode(a.body(), a.signature()))).ifPresent(records::add);
        }
        for (List<SyncRequest.SignedBytes> log : request.pushedLogs()) {
            for (SyncRequest.SignedBytes e : log) {
                readable(() -> ingest.entry(Entry.decode(e.body(), e.signature()))).ifPresent(records::add);
            }
        }
        records.forEach(ingest::send);
    }

    private Optional<ProducerRecord<String, byte[]>> readable(Supplier<ProducerRecord<String, byte[]>> record) {
        try {
            return Optional.of(record.get());
        } catch (DecodeException | IllegalArgumentException e) {
            pushedUnreadable.increment();
            return Optional.empty();
        }
    }
}
