package io.jolt.stream.wire.serde;

import io.jolt.stream.analytics.Tally;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A {@link Tally} in the aggregates' repartition topic and changelogs: two big-endian longs.
 * Internal to the service (warehouses read the Avro jolt.analytics.v1), so no registry round trip per count.
 */
public final class TallySerde implements Serde<Tally>, Serializer<Tally>, Deserializer<Tally> {
    private static final int SIZE = 2 * Long.BYTES;

    @Override
    public byte[] serialize(String topic, Tally tally) {
        return tally == null ? null : ByteBuffer.allocate(SIZE).putLong(tally.events()).putLong(tally.clockSensitive()).array();
    }

    @Override
    public Tally deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        if (bytes.length != SIZE) {
            throw new SerializationException("a tally is " + SIZE + " bytes, not " + bytes.length + " (topic " + topic + ")");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        return new Tally(in.getLong(), in.getLong());
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {}

    @Override
    public void close() {}

    @Override
    public Serializer<Tally> serializer() {
        return this;
    }

    @Override
    public Deserializer<Tally> deserializer() {
        return this;
    }
}
