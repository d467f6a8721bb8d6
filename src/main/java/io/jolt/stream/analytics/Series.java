package io.jolt.stream.analytics;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One value's counts over time: a point per window that counted anything, ascending by start. */
public record Series(String value, List<Point> points) {
    public record Point(long start, long events, @JsonProperty("clock_sensitive") long clockSensitive) {}

    public Series {
        points = List.copyOf(points);
    }

    public long events() {
        return points.stream().mapToLong(Point::events).sum();
    }

    /** Series by value from counts by value and window start. */
    public static List<Series> of(Map<String, ? extends Map<Long, Tally>> counts) {
        List<Series> out = new ArrayList<>();
        new TreeMap<>(counts).forEach((value, byStart) -> {
            List<Point> points = new TreeMap<>(byStart).entrySet().stream()
                    .map(e -> new Point(e.getKey(), e.getValue().events(), e.getValue().clockSensitive())).toList();
            out.add(new Series(value, points));
        });
        return out;
    }

    /** Sums the parts of several instances point by point (each instance counts its own values; summing is right either way). */
    public static List<Series> merge(Collection<List<Series>> parts) {
        Map<String, Map<Long, Tally>> counts = new TreeMap<>();
        for (List<Series> part : parts) {
            for (Series s : part) {
                Map<Long, Tally> byStart = counts.computeIfAbsent(s.value(), v -> new TreeMap<>());
                s.points().forEach(p -> byStart.merge(p.start(), new Tally(p.events(), p.clockSensitive()), Tally::plus));
            }
        }
        return of(counts);
    }
}
