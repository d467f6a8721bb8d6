package io.jolt.stream.archive.service;

import io.jolt.stream.avro.ArchiveKind;

/** Where one archived operation sits in {@code jolt.archive.v2}, and what the index knows of it without reading it. */
record ArchiveLocation(int partition, long offset, long timestamp, ArchiveKind kind, String path) {}
