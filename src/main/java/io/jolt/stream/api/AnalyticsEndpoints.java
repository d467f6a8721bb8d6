package io.jolt.stream.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import io.jolt.stream.analytics.AnalyticsWindow;
import io.jolt.stream.analytics.Dimension;
import io.jolt.stream.analytics.Ranked;
import io.jolt.stream.analytics.Series;
import io.jolt.stream.analytics.TimeArgument;
import io.jolt.stream.analytics.TopN;
import io.jolt.stream.processor.AnalyticsQueries;
import io.jolt.stream.processor.ProcessorMetrics;
import io.jolt.stream.wire.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * {@code /v1/analytics/*}: the conflict aggregates of every instance, gathered and merged by the
 * instance asked. Counts are summed; top-N lists merged exactly (see {@link TopN}). Asked with
 * {@link OwnerRouting#FORWARDED}, an instance answers with its own part.
 */
final class AnalyticsEndpoints {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_POINTS = 10_000;

    /** {@code GET /v1/analytics/conflicts}: each value's counts per window. */
    record Counts(String window, String by, long from, long to, int instances, List<Series> series) {}

    /** {@code GET /v1/analytics/top}: the n values with the most events over the range. */
    record Top(String what, String window, long from, long to, int n, int instances, List<Ranked> top) {}

    /** {@code GET /v1/analytics/pipeline}: what the dashboard's ingest chart shows, summed over instances. */
    record Pipeline(@JsonProperty("verified_entries") long verifiedEntries, @JsonProperty("input_lag") long inputLag, long time, int instances) {}

    private final KafkaStreams streams;
    private final AnalyticsQueries queries;
    private final OwnerRouting routing;

    AnalyticsEndpoints(KafkaStreams streams, AnalyticsQueries queries, OwnerRouting routing) {
        this.streams = streams;
        this.queries = queries;
        this.routing = routing;
    }

    void conflicts(Context ctx) {
        routing.requireRunning();
        AnalyticsWindow window = window(ctx, "1m");
        Dimension by = Dimension.byWireName(param(ctx, "by", "kind")).orElseThrow(() -> bad("by", names(Dimension::wireName)));
        Range range = range(ctx, window, 59);
        if (window.isTimed() && (range.to - range.from) / window.size().toMillis() > MAX_POINTS) {
            throw new ApiError(ApiError.Code.BAD_PARAMETER, "from..to spans more than " + MAX_POINTS + " windows of " + window.wireName());
        }
        Counts local = new Counts(window.wireName(), by.wireName(), range.from, range.to, 1, queries.counts(window, by, range.from, range.to));
        List<Counts> parts = parts(ctx, local, Counts.class);
        answer(ctx, new Counts(local.window, local.by, local.from, local.to, parts.size(), Series.merge(parts.stream().map(Counts::series).toList())));
    }

    void top(Context ctx) {
        routing.requireRunning();
        String whatName = ctx.queryParam("what");
        Dimension what = whatName == null ? null : Dimension.byPlural(whatName).orElse(null);
        if (what == null) {
            throw bad("what", names(Dimension::plural));
        }
        AnalyticsWindow window = window(ctx, "1h");
        int n = IdentityEndpoints.intParam(ctx, "n", 20, 1, 1000);
        Range range = range(ctx, window, 1);
        Top local = new Top(what.plural(), window.wireName(), range.from, range.to, n, 1, queries.top(window, what, range.from, range.to, n));
        List<Top> parts = parts(ctx, local, Top.class);
        answer(ctx, new Top(local.what, local.window, local.from, local.to, n, parts.size(), TopN.merge(parts.stream().map(Top::top).toList(), n)));
    }

    void pipeline(Context ctx) {
        routing.requireRunning();
        Pipeline local = new Pipeline((long) JoltMeters.sum(streams, ProcessorMetrics.VERIFIED, null), inputLag(streams), System.currentTimeMillis(), 1);
        List<Pipeline> parts = parts(ctx, local, Pipeline.class);
        answer(ctx, new Pipeline(parts.stream().mapToLong(Pipeline::verifiedEntries).sum(), parts.stream().mapToLong(Pipeline::inputLag).sum(),
                local.time, parts.size()));
    }

    /** This instance's part and every other instance's. */
    private <T> List<T> parts(Context ctx, T local, Class<T> type) {
        List<T> parts = new ArrayList<>();
        parts.add(local);
        for (byte[] body : routing.askOthers(ctx)) {
            try {
                parts.add(JSON.readValue(body, type));
            } catch (IOException e) {
                throw new UncheckedIOException("an instance's part is not a " + type.getSimpleName(), e);
            }
        }
        return parts;
    }

    /** Records behind on the input topics, as this instance's consumer sees it (the records-lag of each assigned partition). */
    private static long inputLag(KafkaStreams streams) {
        double lag = 0;
        for (Map.Entry<MetricName, ? extends Metric> m : streams.metrics().entrySet()) {
            MetricName name = m.getKey();
            String topic = name.tags().get("topic");
            boolean input = Topics.ENTRIES.equals(topic) || Topics.AUTHORITY.equals(topic);
            if (input && name.name().equals("records-lag") && name.tags().containsKey("partition")
                    && !String.valueOf(name.tags().get("client-id")).contains("restore")) {
                double value = ((Number) m.getValue().metricValue()).doubleValue();
                lag += Double.isNaN(value) ? 0 : value;
            }
        }
        return Math.round(lag);
    }

    private record Range(long from, long to) {}

    /**
     * from..to (ISO-8601 or ms; windows are chosen by their start); by default up to now, from
     * {@code windowsBack} windows before the current one (totals: all time).
     */
    private static Range range(Context ctx, AnalyticsWindow window, int windowsBack) {
        if (!window.isTimed()) {
            return new Range(0, 0);
        }
        long to = time(ctx, "to", System.currentTimeMillis());
        long from = time(ctx, "from", window.startOf(to) - windowsBack * window.size().toMillis());
        if (from > to) {
            throw new ApiError(ApiError.Code.BAD_PARAMETER, "from is after to");
        }
        return new Range(from, to);
    }

    private static long time(Context ctx, String name, long fallback) {
        String value = ctx.queryParam(name);
        if (value == null) {
            return fallback;
        }
        try {
            return TimeArgument.parse(value);
        } catch (IllegalArgumentException e) {
            throw new ApiError(ApiError.Code.BAD_PARAMETER, name + ": " + e.getMessage());
        }
    }

    private static AnalyticsWindow window(Context ctx, String fallback) {
        return AnalyticsWindow.byWireName(param(ctx, "window", fallback))
                .orElseThrow(() -> bad("window", Arrays.stream(AnalyticsWindow.values()).map(AnalyticsWindow::wireName).collect(Collectors.joining(", "))));
    }

    private static String param(Context ctx, String name, String fallback) {
        String value = ctx.queryParam(name);
        return value == null ? fallback : value;
    }

    private static String names(Function<Dimension, String> name) {
        return Arrays.stream(Dimension.values()).map(name).collect(Collectors.joining(", "));
    }

    private static ApiError bad(String parameter, String allowed) {
        return new ApiError(ApiError.Code.BAD_PARAMETER, parameter + " must be one of: " + allowed);
    }

    private static void answer(Context ctx, Object body) {
        try {
            ctx.contentType("application/json").result(JSON.writeValueAsString(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
