package io.jolt.stream.processor.store;

/** Where an input record came from: topic, partition, offset. */
public record Source(String topic, int partition, long offset) {}
