package io.jolt.stream.wire.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Avro in the Confluent wire format: byte 0, a 4-byte big-endian schema id, Avro binary. The
 * subject is {@code <topic>-value} (Confluent's TopicNameStrategy). Reading resolves the
 * writer's schema (by id) against this class's schema, so older and newer compatible writers are
 * read. Failures are {@link WireFormatException}s naming what was wrong.
 */
public final class ConfluentAvroSerde<T extends SpecificRecord> implements Serde<T>, Serializer<T>, Deserializer<T> {
    static final byte MAGIC = 0;

    private final SchemaRegistry registry;
    private final Schema readerSchema;
    private final SpecificDatumWriter<T> writer;
    private final Map<String, Integer> idBySubject = new ConcurrentHashMap<>();
    private final Map<Integer, SpecificDatumReader<T>> readersById = new ConcurrentHashMap<>();

    public ConfluentAvroSerde(SchemaRegistry registry, Schema schema) {
        this.registry = registry;
        this.readerSchema = schema;
        this.writer = new SpecificDatumWriter<>(schema, SpecificData.getForSchema(schema));
    }

    /** Why bytes could not be read as this type. */
    public static final class WireFormatException extends SerializationException {
        public enum Kind { NOT_CONFLUENT_WIRE_FORMAT, UNKNOWN_SCHEMA_ID, MALFORMED_AVRO }

        private final Kind kind;

        WireFormatException(Kind kind, String message) {
            super(message);
            this.kind = kind;
        }

        public Kind kind() {
            return kind;
        }
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        int id = idBySubject.computeIfAbsent(topic + "-value", subject -> registry.register(subject, readerSchema));
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        out.write(MAGIC);
        out.writeBytes(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            writer.write(data, encoder);
            encoder.flush();
        } catch (IOException | AvroRuntimeException e) {
            throw new SerializationException("cannot write " + readerSchema.getFullName() + " to " + topic + ": " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (data.length < 5 || data[0] != MAGIC) {
            throw new WireFormatException(WireFormatException.Kind.NOT_CONFLUENT_WIRE_FORMAT,
                    "not the Confluent wire format (magic byte 0 and a 4-byte schema id)");
        }
        int id = ByteBuffer.wrap(data, 1, 4).getInt();
        SpecificDatumReader<T> reader = readersById.computeIfAbsent(id, this::readerFor);
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(data, 5, data.length - 5, null);
        try {
            T value = reader.read(null, decoder);
            if (!decoder.isEnd()) {
                throw new WireFormatException(WireFormatException.Kind.MALFORMED_AVRO, "trailing bytes after the Avro record");
            }
            return value;
        } catch (IOException | RuntimeException e) {
            if (e instanceof WireFormatException w) {
                throw w;
            }
            throw new WireFormatException(WireFormatException.Kind.MALFORMED_AVRO,
                    "not a " + readerSchema.getName() + " in Avro binary: " + e);
        }
    }

    private SpecificDatumReader<T> readerFor(int id) {
        Schema writerSchema;
        try {
            writerSchema = registry.schemaById(id);
        } catch (SchemaRegistry.UnknownSchemaException e) {
            throw new WireFormatException(WireFormatException.Kind.UNKNOWN_SCHEMA_ID, e.getMessage());
        }
        return new SpecificDatumReader<>(writerSchema, readerSchema, SpecificData.getForSchema(readerSchema));
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {}

    @Override
    public void close() {}
}
