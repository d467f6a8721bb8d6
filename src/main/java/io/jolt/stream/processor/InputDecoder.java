package io.jolt.stream.processor;

import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.processor.store.Source;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.DecodeException;
import io.jolt.stream.protocol.Defect;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.wire.AvroRecords;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The processor's first step: an input record's bytes to a protocol value, or to the rejection
 * that says why not. Inputs are read as bytes and decoded here, so a record that is not Avro,
 * names an unknown schema id, holds an unreadable field or is keyed by another identity is
 * reported with its offset instead of stopping the task. Public for the bench's framework floor,
 * which decodes with this same class so that its decoding cannot drift from the service's.
 */
public final class InputDecoder {
    /** What an input record is. */
    public sealed interface Decoded {}

    public record AuthorityInput(AuthorityRecord record) implements Decoded {}

    public record EntryInput(Entry entry) implements Decoded {}

    /** Not a record of its topic: reported on jolt.rejected.v2 (keyed by {@code identity}), nothing stored. */
    public record Rejected(String identity, RejectedRecord report) implements Decoded {}

    private final ConfluentAvroSerde<io.jolt.stream.avro.AuthorityRecord> authoritySerde;
    private final ConfluentAvroSerde<DeviceWriterEntry> entrySerde;

    public InputDecoder(ConfluentAvroSerde<io.jolt.stream.avro.AuthorityRecord> authoritySerde, ConfluentAvroSerde<DeviceWriterEntry> entrySerde) {
        this.authoritySerde = authoritySerde;
        this.entrySerde = entrySerde;
    }

    public Decoded decode(String key, byte[] value, Source source) {
        return Topics.AUTHORITY.equals(source.topic()) ? authority(key, value, source) : entry(key, value, source);
    }

    /** A record keyed by another identity would be merged on the wrong partition. */
    private static Decoded keyed(String key, String identity, Hash hash, Decoded decoded, Source source) {
        return identity.equals(key) ? decoded : new Rejected(identity, OutputRecords.keyMismatch(key, identity, hash, source));
    }

    private Decoded authority(String key, byte[] value, Source source) {
        try {
            io.jolt.stream.avro.AuthorityRecord avro = authoritySerde.deserialize(source.topic(), value);
            if (avro == null) {
                return nullValue(key, source);
            }
            AuthorityRecord record = AvroRecords.authority(avro);
            return keyed(key, record.body().identity(), record.hash(), new AuthorityInput(record), source);
        } catch (SerializationException | DecodeException | IllegalArgumentException e) {
            return undecodable(key, value, source, e);
        }
    }

    private Decoded entry(String key, byte[] value, Source source) {
        DeviceWriterEntry avro;
        try {
            avro = entrySerde.deserialize(source.topic(), value);
        } catch (SerializationException e) {
            return undecodable(key, value, source, e);
        }
        if (avro == null) {
            return nullValue(key, source);
        }
        Entry entry;
        try {
            entry = AvroRecords.entry(avro);
        } catch (DecodeException | IllegalArgumentException e) {
            // Avro, but not a protocol entry: the identity field is readable, so the report is keyed by it.
            String identity = avro.getIdentity();
            return new Rejected(identity, OutputRecords.invalidEntry(identity, null, Defect.UNREADABLE_FIELD.name(), e.getMessage(), source));
        }
        return keyed(key, entry.body().identity(), entry.hash(), new EntryInput(entry), source);
    }

    private static Decoded nullValue(String key, Source source) {
        return new Rejected(key, OutputRecords.undecodable(key, "NULL_VALUE", "a record without a value", source, rawKey(key), null));
    }

    private static Decoded undecodable(String key, byte[] value, Source source, Exception e) {
        String rule = ruleOf(e);
        return new Rejected(key, OutputRecords.undecodable(key, rule, Objects.toString(e.getMessage(), rule), source, rawKey(key), value));
    }

    private static byte[] rawKey(String key) {
        return key == null ? null : key.getBytes(StandardCharsets.UTF_8);
    }

    private static String ruleOf(Exception e) {
        if (e instanceof ConfluentAvroSerde.WireFormatException w) {
            return w.kind().name();
        }
        if (e instanceof DecodeException d) {
            return d.kind().name();
        }
        return e.getClass().getSimpleName();
    }
}
