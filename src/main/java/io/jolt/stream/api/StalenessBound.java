package io.jolt.stream.api;

import io.javalin.http.Context;
import io.jolt.stream.processor.Freshness;
import io.jolt.stream.processor.QueryFreshness;

/**
 * The promise of bounded staleness at the door: an answer about an identity is given from this
 * instance's stores only while they can show they hold every record the brokers held
 * {@code jolt.query.max.staleness.ms} ago ({@link QueryFreshness}); it then says how current it
 * is ({@value Freshness#AGE_HEADER}, {@value Freshness#POSITION_HEADER}). Otherwise the answer is
 * 503 {@code stale}, at once: the check reads only what the instance already knows.
 */
final class StalenessBound {
    private final QueryFreshness freshness;

    StalenessBound(QueryFreshness freshness) {
        this.freshness = freshness;
    }

    /** Marks the answer with its freshness, or refuses it when this instance cannot show one within the bound. */
    void require(Context ctx, int partition) {
        long bound = freshness.bound().toMillis();
        Freshness fresh = freshness.within(partition).orElseThrow(() -> stale(partition, bound));
        ctx.header(Freshness.AGE_HEADER, String.valueOf(fresh.ageMillis(freshness.now())));
        ctx.header(Freshness.POSITION_HEADER, fresh.positionHeader());
    }

    private ApiError stale(int partition, long bound) {
        Long age = freshness.of(partition).map(f -> f.ageMillis(freshness.now())).orElse(null);
        String why = age == null
                ? "this instance holds no task for the identity's partition " + partition + " that has caught up with the brokers"
                : "this instance last caught up with the brokers on the identity's partition " + partition + " " + age + " ms ago";
        return new ApiError(ApiError.Code.STALE, why + "; answers must hold every record accepted more than " + bound
                + " ms ago (jolt.query.max.staleness.ms)", g -> {
                    g.writeNumberField("partition", partition);
                    if (age == null) {
                        g.writeNullField("age_ms");
                    } else {
                        g.writeNumberField("age_ms", age);
                    }
                    g.writeNumberField("max_staleness_ms", bound);
                });
    }
}
