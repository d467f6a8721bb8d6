package io.jolt.stream.connect;

import java.util.LinkedHashMap;
import java.util.Map;

/** One identity followed on one provider: the connector's unit of work and its Connect source partition. */
record FollowedPair(String provider, String identity) implements Comparable<FollowedPair> {
    static final String PROVIDER = "provider";
    static final String IDENTITY = "identity";

    /**
     * The Connect source partition: the offsets topic keys the pair's cursors by it. Its order is fixed (provider, then
     * identity): the worker finds an offset by the serialized bytes of this map, and {@code Map.of}'s order changes from one
     * JVM to the next, which lost every stored position at a restart.
     */
    Map<String, String> sourcePartition() {
        Map<String, String> partition = new LinkedHashMap<>();
        partition.put(PROVIDER, provider);
        partition.put(IDENTITY, identity);
        return partition;
    }

    /** One line of a task's configuration. */
    String line() {
        return provider + " " + identity;
    }

    static FollowedPair parse(String line) {
        int space = line.lastIndexOf(' ');
        if (space < 0) {
            throw new IllegalArgumentException("not a 'provider identity' line: " + line);
        }
        return new FollowedPair(line.substring(0, space), line.substring(space + 1));
    }

    @Override
    public int compareTo(FollowedPair o) {
        int c = provider.compareTo(o.provider);
        return c != 0 ? c : identity.compareTo(o.identity);
    }

    @Override
    public String toString() {
        return identity + " on " + provider;
    }
}
