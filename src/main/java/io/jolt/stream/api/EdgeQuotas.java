package io.jolt.stream.api;

import io.github.bucket4j.TimeMeter;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.function.Predicate;

/**
 * Quotas at the HTTP edge, so that no client, however hard it posts or syncs, takes the instance
 * from the others: a token bucket per client for {@code POST /v1/records} (a line costs a token)
 * and for {@code POST /jolt/device-writer/sync} (a request costs one), and a bound on the sync
 * requests this instance serves at once, so that syncing hard cannot take the threads and the
 * CPU ingest needs. A client is the configured credential its request carries ({@link HttpAccess}),
 * else its address. Over a quota the answer is 429 with {@code Retry-After} and the one error
 * shape, and nothing of the request is done: what is let through is ingested and merged as
 * before, so the merged state still depends on the set of records alone.
 */
public final class EdgeQuotas {
    /** The settings it reads (typed, defaulted and documented in the service's configuration). */
    public static final String RECORDS_RATE = "jolt.http.quota.records.rate";
    public static final String RECORDS_BURST = "jolt.http.quota.records.burst";
    public static final String SYNC_RATE = "jolt.http.quota.sync.rate";
    public static final String SYNC_BURST = "jolt.http.quota.sync.burst";
    public static final String SYNC_MAX_CONCURRENT = "jolt.http.sync.max.concurrent";

    /**
     * The quotas of every client: records a second and sync requests a second, each with its
     * burst, and the sync requests served at once by the instance.
     */
    public record Settings(Quota records, Quota sync, int maxConcurrentSyncs) {
        /**
         * Generous: about what one instance serves, so that they stop a runaway client without
         * a provider noticing them otherwise; a burst of 20,000 lines holds any usual body of
         * at most 8 MiB (a §9 line is 400 bytes or more). Lower them to what your clients need.
         */
        public static final Settings DEFAULT = new Settings(new Quota(10_000, 20_000), new Quota(1_000, 2_000), 16);

        public Settings {
            if (maxConcurrentSyncs < 1) {
                throw new IllegalArgumentException("at least one sync request must be served at once, not " + maxConcurrentSyncs);
            }
        }
    }

    static final String RECORDS_ROUTE = "/v1/records";
    static final String SYNC_ROUTE = "/jolt/device-writer/sync";
    /** The client label of every request without configured credentials: addresses are not labels, there is no bound on them. */
    static final String ADDRESS = "address";

    private final Settings settings;
    private final HttpAccess access;
    private final MeterRegistry metrics;
    private final ClientBuckets records;
    private final ClientBuckets syncs;
    private final Semaphore syncSlots;
    private final Predicate<Context> forwardedByPeer;

    /** @param forwardedByPeer whether a request was forwarded by another instance, which charged it ({@link OwnerRouting#forwardedByPeer}) */
    EdgeQuotas(Settings settings, HttpAccess access, MeterRegistry metrics, Predicate<Context> forwardedByPeer) {
        this(settings, access, metrics, forwardedByPeer, TimeMeter.SYSTEM_NANOTIME);
    }

    EdgeQuotas(Settings settings, HttpAccess access, MeterRegistry metrics, Predicate<Context> forwardedByPeer, TimeMeter clock) {
        this.settings = settings;
        this.forwardedByPeer = forwardedByPeer;
        this.access = access;
        this.metrics = metrics;
        this.records = new ClientBuckets(settings.records(), clock);
        this.syncs = new ClientBuckets(settings.sync(), clock);
        this.syncSlots = new Semaphore(settings.maxConcurrentSyncs());
        // Every series there can be, at 0 from the start, so that a rate over them is right from the first refusal.
        List<String> clients = new ArrayList<>(access.principals());
        clients.add(ADDRESS);
        for (String client : clients) {
            refusals(RECORDS_ROUTE, client, "rate");
            refusals(RECORDS_ROUTE, client, "burst");
            refusals(SYNC_ROUTE, client, "rate");
            refusals(SYNC_ROUTE, client, "concurrency");
        }
    }

    /** Who a request is to the quotas: by the credential it carries, else by its address. */
    private record Client(String key, String label) {}

    private Client client(Context ctx) {
        return access.principal(ctx).map(p -> new Client(p, p)).orElseGet(() -> new Client(ADDRESS + " " + ctx.ip(), ADDRESS));
    }

    /**
     * Lets a {@code POST /v1/records} body of {@code lines} lines through, taking as many tokens,
     * or refuses it whole: 429 {@code quota_exceeded} until the client's bucket holds them, 413
     * {@code batch_over_burst} when it never can (a 429 would have the client retry for ever).
     */
    void admitRecords(Context ctx, long lines) {
        if (!settings.records().limits() || lines == 0) {
            return;
        }
        Client client = client(ctx);
        if (lines > settings.records().burst()) {
            refusals(RECORDS_ROUTE, client.label(), "burst").increment();
            throw new ApiError(ApiError.Code.BATCH_OVER_BURST, lines + " lines, more than the " + settings.records().burst()
                    + " a client may send at once (" + RECORDS_BURST + "): send them in smaller batches");
        }
        take(ctx, records, RECORDS_ROUTE, client, lines, settings.records() + " records");
    }

    /**
     * Serves a sync request with {@code handler} when a slot of the instance's bound is free
     * (else 429 {@code too_many_concurrent_syncs}, retry after a second) and the client's bucket
     * holds a token (else 429 {@code quota_exceeded}). A request another instance forwarded here
     * takes a slot, for it is served here, but no token: it was charged where it was received. A
     * client that marks its request forwarded itself is charged as any other.
     */
    void sync(Context ctx, Handler handler) throws Exception {
        Client client = client(ctx);
        if (!syncSlots.tryAcquire()) {
            refusals(SYNC_ROUTE, client.label(), "concurrency").increment();
            ctx.header("Retry-After", "1");
            throw new ApiError(ApiError.Code.TOO_MANY_CONCURRENT_SYNCS, "this instance is serving " + settings.maxConcurrentSyncs()
                    + " sync requests, as many as it serves at once (" + SYNC_MAX_CONCURRENT + "): retry after 1 s");
        }
        try {
            if (settings.sync().limits() && !forwardedByPeer.test(ctx)) {
                take(ctx, syncs, SYNC_ROUTE, client, 1, settings.sync() + " requests");
            }
            handler.handle(ctx);
        } finally {
            syncSlots.release();
        }
    }

    private void take(Context ctx, ClientBuckets buckets, String route, Client client, long cost, String quota) {
        Optional<Duration> wait = buckets.take(client.key(), cost);
        if (wait.isPresent()) {
            refusals(route, client.label(), "rate").increment();
            long seconds = retryAfterSeconds(wait.get());
            ctx.header("Retry-After", Long.toString(seconds));
            throw new ApiError(ApiError.Code.QUOTA_EXCEEDED, client.key() + " is over its quota on " + route + " (" + quota + "): retry after "
                    + seconds + " s");
        }
    }

    /** Whole seconds, rounded up (Retry-After has no finer unit), and at least one. */
    static long retryAfterSeconds(Duration wait) {
        long seconds = wait.toSeconds() + (wait.toNanosPart() > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }

    private Counter refusals(String route, String client, String reason) {
        return Counter.builder("jolt.http.quota.refused")
                .description("requests the HTTP edge refused by a quota, by route, client (a credential's name, or address) and reason")
                .tag("route", route).tag("client", client).tag("reason", reason).register(metrics);
    }
}
