package io.jolt.stream.kafka;

import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.kafka.serde.ConfluentAvroSerde;
import io.jolt.stream.kafka.serde.SchemaRegistry;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.EntryRules;
import io.jolt.stream.protocol.json.RecordJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Takes §9 JSON lines and produces them to the input topics (key = identity, Avro in the wire
 * format). What can be judged from a line alone is answered at once; signatures, authority and
 * merge are the processor's, asynchronously, like any other input.
 */
public final class RecordIngest implements AutoCloseable {
    /** The answer for one line: accepted (topic, partition, offset) or rejected with a reason. */
    public record LineResult(long line, boolean accepted, String reason, String detail, String topic, Integer partition, Long offset) {
        static LineResult rejected(long line, String reason, String detail) {
            return new LineResult(line, false, reason, detail, null, null, null);
        }
    }

    private final KafkaProducer<String, byte[]> producer;
    private final ConfluentAvroSerde<io.jolt.stream.avro.AuthorityRecord> authority;
    private final ConfluentAvroSerde<DeviceWriterEntry> entries;

    public RecordIngest(String bootstrapServers, SchemaRegistry registry) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.setProperty(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        this.authority = new ConfluentAvroSerde<>(registry, io.jolt.stream.avro.AuthorityRecord.getClassSchema());
        this.entries = new ConfluentAvroSerde<>(registry, DeviceWriterEntry.getClassSchema());
    }

    public List<LineResult> ingest(List<byte[]> lines) {
        List<LineResult> results = new ArrayList<>();
        List<Future<RecordMetadata>> pending = new ArrayList<>();
        List<Integer> pendingIndex = new ArrayList<>();
        long number = 0;
        for (byte[] line : lines) {
            number++;
            if (line.length == 0) {
                continue;
            }
            RecordJson.Line read = RecordJson.read(line);
            ProducerRecord<String, byte[]> record = null;
            if (read instanceof RecordJson.Skipped s) {
                results.add(LineResult.rejected(number, "unreadable_line", s.reason()));
            } else if (read instanceof RecordJson.AuthorityLine a) {
                if (a.record() == null) {
                    results.add(LineResult.rejected(number, "invalid_authority", a.problem()));
                } else {
                    record = authority(a.record());
                }
            } else if (read instanceof RecordJson.EntryLine e) {
                if (e.input() instanceof EntryInput.Unreadable u) {
                    results.add(LineResult.rejected(number, "invalid_entry", u.defect().name() + ": " + u.detail()));
                } else {
                    EntryInput.Signed signed = (EntryInput.Signed) e.input();
                    Optional<io.jolt.stream.protocol.Defect> defect = signed.defect() != null ? Optional.of(signed.defect())
                            : EntryRules.check(signed.entry().body(), e.identity());
                    if (defect.isPresent()) {
                        results.add(LineResult.rejected(number, "invalid_entry", defect.get().name() + ": " + defect.get().description()));
                    } else {
                        record = entry(signed.entry());
                    }
                }
            }
            if (record != null) {
                pendingIndex.add(results.size());
                results.add(null);
                pending.add(producer.send(record));
            }
        }
        producer.flush();
        long[] numbers = lineNumbers(lines);
        for (int i = 0; i < pending.size(); i++) {
            int index = pendingIndex.get(i);
            try {
                RecordMetadata m = pending.get(i).get(30, TimeUnit.SECONDS);
                results.set(index, new LineResult(numbers[index], true, null, null, m.topic(), m.partition(), m.offset()));
            } catch (ExecutionException | TimeoutException e) {
                results.set(index, LineResult.rejected(numbers[index], "not_produced", String.valueOf(e.getCause() == null ? e : e.getCause())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                results.set(index, LineResult.rejected(numbers[index], "not_produced", "interrupted"));
            }
        }
        return results;
    }

    /** The line number of each result slot (results skip blank lines). */
    private static long[] lineNumbers(List<byte[]> lines) {
        long[] out = new long[lines.size()];
        int slot = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).length > 0) {
                out[slot++] = i + 1;
            }
        }
        return out;
    }

    public ProducerRecord<String, byte[]> authority(AuthorityRecord record) {
        return new ProducerRecord<>(Topics.AUTHORITY, record.body().identity(), authority.serialize(Topics.AUTHORITY, AvroRecords.authority(record)));
    }

    public ProducerRecord<String, byte[]> entry(Entry entry) {
        return new ProducerRecord<>(Topics.ENTRIES, entry.body().identity(), entries.serialize(Topics.ENTRIES, AvroRecords.entry(entry)));
    }

    /** Sends without waiting (bulk loads); {@link #flush} waits for all. */
    public Future<RecordMetadata> send(ProducerRecord<String, byte[]> record) {
        return producer.send(record);
    }

    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close();
    }
}
