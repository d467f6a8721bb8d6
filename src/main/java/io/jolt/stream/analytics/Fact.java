package io.jolt.stream.analytics;

/** One thing to count: a key and what it adds. */
public record Fact(FactKey key, Tally tally) {}
