package io.jolt.stream.service;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jolt.stream.wire.RecordIngest;
import io.jolt.stream.wire.TopicSchemas;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * HTTP ingest reaches a secured cluster as the processor does: the producer behind
 * {@code POST /v1/records} is built from the cluster's settings, security included, not from its
 * bootstrap servers alone (which would fail against SASL_SSL on the first record).
 */
class SecuredClusterIngestTest {
    @Test
    void givenASecuredClusterTheIngestProducerIsBuiltWithItsSecuritySettings() {
        Properties file = new Properties();
        file.setProperty("bootstrap.servers", "127.0.0.1:1");
        file.setProperty("security.protocol", "SSL");
        file.setProperty("ssl.truststore.location", "no-such-dir/cluster-trust.p12");
        JoltConfig config = JoltConfig.of(file, Map.of());

        assertThatThrownBy(() -> new RecordIngest(config.adminProperties(), TopicSchemas.seededRegistry()).close())
                .as("the trust store is read while the producer is built: the SSL settings reached it")
                .hasStackTraceContaining("cluster-trust.p12");
    }
}
