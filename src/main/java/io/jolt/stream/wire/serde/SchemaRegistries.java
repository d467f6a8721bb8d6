package io.jolt.stream.wire.serde;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Optional;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The HTTP client of a Confluent-compatible registry, from Confluent's own setting names, when
 * {@code schema.registry.url} is set (else the service uses the embedded in-memory registry).
 */
public final class SchemaRegistries {
    public static final String URL = "schema.registry.url";
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    public static final String AUTO_REGISTER = "auto.register.schemas";
    public static final String TRUSTSTORE_LOCATION = "schema.registry.ssl.truststore.location";
    public static final String TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";

    private SchemaRegistries() {}

    /** The HTTP registry the settings name, or empty when they name none ({@code schema.registry.url} unset). */
    public static Optional<SchemaRegistry> from(Function<String, String> config) throws Exception {
        String url = config.apply(URL);
        if (url == null) {
            return Optional.empty();
        }
        HttpSchemaRegistry.Options options = HttpSchemaRegistry.Options.defaults()
                .withAutoRegister(!"false".equalsIgnoreCase(config.apply(AUTO_REGISTER)));
        String userInfo = config.apply(BASIC_AUTH_USER_INFO);
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            options = options.withBasicAuth(colon < 0 ? userInfo : userInfo.substring(0, colon), colon < 0 ? "" : userInfo.substring(colon + 1));
        }
        String truststore = config.apply(TRUSTSTORE_LOCATION);
        if (truststore != null) {
            options = options.withSslContext(sslContext(Path.of(truststore), config.apply(TRUSTSTORE_PASSWORD)));
        }
        return Optional.of(new HttpSchemaRegistry(url, options));
    }

    private static SSLContext sslContext(Path truststore, String password) throws Exception {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        try (InputStream in = Files.newInputStream(truststore)) {
            store.load(in, password == null ? null : password.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
