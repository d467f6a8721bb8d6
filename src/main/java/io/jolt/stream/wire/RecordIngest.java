package io.jolt.stream.wire;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Defect;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.EntryRules;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.wire.serde.SchemaRegistry;
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
    private final InputEncoder encoder;

    public RecordIngest(String bootstrapServers, SchemaRegistry registry) {
        this(bootstrap(bootstrapServers), registry);
    }

    /**
     * A producer for the cluster {@code client} names: its bootstrap servers and whatever else it
     * needs to connect (the {@code security.*}, {@code sasl.*} and {@code ssl.*} of a secured
     * cluster), with ingest's own delivery settings on top.
     */
    public RecordIngest(Properties client, SchemaRegistry registry) {
        Properties p = new Properties();
        p.putAll(client);
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.setProperty(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        this.encoder = new InputEncoder(registry);
    }

    private static Properties bootstrap(String bootstrapServers) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return p;
    }

    public List<LineResult> ingest(List<byte[]> lines) {
        List<LineResult> results = new ArrayList<>();
        List<Sent> sent = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).length == 0) {
                continue;
            }
            long number = i + 1;
            Judged judged = judge(number, lines.get(i));
            if (judged.refusal() != null) {
                results.add(judged.refusal());
            } else {
                sent.add(new Sent(results.size(), number, producer.send(judged.record())));
                results.add(null); // its acknowledgement fills the slot
            }
        }
        producer.flush();
        sent.forEach(s -> results.set(s.slot(), acknowledged(s)));
        return results;
    }

    /** A line produced: where its result goes, its number, and the broker's acknowledgement to come. */
    private record Sent(int slot, long line, Future<RecordMetadata> ack) {}

    /** A line judged by what it holds alone: the record to produce, or its refusal. */
    private record Judged(ProducerRecord<String, byte[]> record, LineResult refusal) {
        static Judged produce(ProducerRecord<String, byte[]> record) {
            return new Judged(record, null);
        }

        static Judged refuse(long line, String reason, String detail) {
            return new Judged(null, LineResult.rejected(line, reason, detail));
        }
    }

    private Judged judge(long number, byte[] line) {
        RecordJson.Line read = RecordJson.read(line);
        if (read instanceof RecordJson.Skipped s) {
            return Judged.refuse(number, "unreadable_line", s.reason());
        }
        if (read instanceof RecordJson.AuthorityLine a) {
            return a.record() == null ? Judged.refuse(number, "invalid_authority", a.problem()) : Judged.produce(authority(a.record()));
        }
        RecordJson.EntryLine e = (RecordJson.EntryLine) read;
        if (e.input() instanceof EntryInput.Unreadable u) {
            return Judged.refuse(number, "invalid_entry", u.defect().name() + ": " + u.detail());
        }
        EntryInput.Signed signed = (EntryInput.Signed) e.input();
        Optional<Defect> defect = signed.defect() != null ? Optional.of(signed.defect()) : EntryRules.check(signed.entry().body(), e.identity());
        return defect.isPresent() ? Judged.refuse(number, "invalid_entry", defect.get().name() + ": " + defect.get().description())
                : Judged.produce(entry(signed.entry()));
    }

    private static LineResult acknowledged(Sent sent) {
        try {
            RecordMetadata m = sent.ack().get(30, TimeUnit.SECONDS);
            return new LineResult(sent.line(), true, null, null, m.topic(), m.partition(), m.offset());
        } catch (ExecutionException | TimeoutException e) {
            return LineResult.rejected(sent.line(), "not_produced", String.valueOf(e.getCause() == null ? e : e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return LineResult.rejected(sent.line(), "not_produced", "interrupted");
        }
    }

    public ProducerRecord<String, byte[]> authority(AuthorityRecord record) {
        return encoder.authority(record);
    }

    public ProducerRecord<String, byte[]> entry(Entry entry) {
        return encoder.entry(entry);
    }

    /** Sends without waiting (bulk loads); {@link #flush} waits for all. */
    public Future<RecordMetadata> send(ProducerRecord<String, byte[]> record) {
        return producer.send(record);
    }

    /** Sends without waiting; {@code acknowledged} hears the broker's answer (on the producer's I/O thread). */
    public Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, org.apache.kafka.clients.producer.Callback acknowledged) {
        return producer.send(record, acknowledged);
    }

    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close();
    }
}
