package io.jolt.stream.wire.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.testing.ApicurioRegistry;
import io.jolt.stream.wire.AvroRecords;
import io.jolt.stream.wire.Topics;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/**
 * Against a real registry (Apicurio 2.6.13.Final through its Confluent API): records written by our
 * serdes are read back by id; under BACKWARD compatibility a producer's v2 schema (an added
 * optional field) is accepted and its records are read by the current service, and a breaking
 * change is refused by the registry.
 */
@org.junit.jupiter.api.extension.ExtendWith(io.jolt.stream.testing.RealKafka.class)
class ApicurioRegistryIT {
    @Test
    void theTopologyWithTheHttpRegistryOnTheRealBrokerReachesTheSameStateAsWithTheInMemoryOne(io.jolt.stream.testing.KafkaBroker broker)
            throws Exception {
        try (ApicurioRegistry apicurio = ApicurioRegistry.start()) {
            HttpSchemaRegistry registry = new HttpSchemaRegistry(apicurio.url(), HttpSchemaRegistry.Options.defaults());
            io.jolt.stream.testing.StreamHarness harness = new io.jolt.stream.testing.StreamHarness(broker);
            harness.resetTopics();
            var config = harness.config("jolt-it-apicurio", io.jolt.stream.testing.StreamHarness.tempStateDir("apicurio"), 2);
            try (var service = harness.start(config, registry)) {
                harness.produce(io.jolt.stream.wire.VectorRecords.of("mixed", registry));
                harness.awaitProcessed("jolt-it-apicurio", java.time.Duration.ofSeconds(60));
            }
            assertThat(harness.stateTable(registry)).isEqualTo(io.jolt.stream.processor.MergedTable.expected("mixed"));
        }
    }

    @Test
    void ourSerdesRoundTripAndSchemasEvolveUnderBackwardCompatibility() throws Exception {
        try (ApicurioRegistry apicurio = ApicurioRegistry.start()) {
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> config = http.send(HttpRequest.newBuilder(URI.create(apicurio.url() + "/config"))
                    .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"BACKWARD\"}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(config.statusCode()).as(config.body()).isEqualTo(200);

            TestIdentity alice = TestIdentity.named("apicurio");
            alice.authorize("dev_a");
            Entry entry = alice.device("dev_a").set("/profile", "v1");
            HttpSchemaRegistry registry = new HttpSchemaRegistry(apicurio.url(), HttpSchemaRegistry.Options.defaults());
            ConfluentAvroSerde<DeviceWriterEntry> serde = new ConfluentAvroSerde<>(registry, DeviceWriterEntry.getClassSchema());
            byte[] written = serde.serialize(Topics.ENTRIES, AvroRecords.entry(entry));
            HttpSchemaRegistry freshReader = new HttpSchemaRegistry(apicurio.url(), HttpSchemaRegistry.Options.defaults());
            DeviceWriterEntry read = new ConfluentAvroSerde<DeviceWriterEntry>(freshReader, DeviceWriterEntry.getClassSchema())
                    .deserialize(Topics.ENTRIES, written);
            assertThat(AvroRecords.entry(read)).isEqualTo(entry);

            // v2: a producer adds an optional field. BACKWARD accepts it; the current service reads its records.
            Schema v2 = withField(DeviceWriterEntry.getClassSchema(), "{\"name\":\"client\",\"type\":[\"null\",\"string\"],\"default\":null}");
            int v2Id = registry.register(Topics.ENTRIES + "-value", v2);
            byte[] fromV2 = confluent(v2Id, v2, upgrade(AvroRecords.entry(entry), v2, "a v2 producer"));
            assertThat(AvroRecords.entry(serde.deserialize(Topics.ENTRIES, fromV2))).isEqualTo(entry);

            // A breaking change (a required field without default) is refused by the registry.
            Schema breaking = withField(DeviceWriterEntry.getClassSchema(), "{\"name\":\"mandatory\",\"type\":\"string\"}");
            assertThatThrownBy(() -> registry.register(Topics.ENTRIES + "-value", breaking))
                    .isInstanceOf(HttpSchemaRegistry.RegistryException.class)
                    .satisfies(e -> assertThat(((HttpSchemaRegistry.RegistryException) e).status()).isEqualTo(409));
        }
    }

    static Schema withField(Schema schema, String fieldJson) {
        String json = schema.toString();
        String patched = json.substring(0, json.lastIndexOf("]")) + "," + fieldJson + json.substring(json.lastIndexOf("]"));
        return new Schema.Parser().parse(patched);
    }

    static GenericRecord upgrade(DeviceWriterEntry record, Schema v2, String client) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new org.apache.avro.specific.SpecificDatumWriter<DeviceWriterEntry>(DeviceWriterEntry.getClassSchema()).write(record, encoder);
        encoder.flush();
        GenericRecord generic = new GenericDatumReader<GenericRecord>(DeviceWriterEntry.getClassSchema(), v2)
                .read(null, DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
        generic.put("client", client);
        return generic;
    }

    static byte[] confluent(int id, Schema schema, GenericRecord record) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.writeBytes(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema, GenericData.get()).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
