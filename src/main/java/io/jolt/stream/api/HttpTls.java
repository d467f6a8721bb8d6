package io.jolt.stream.api;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * HTTPS for the API, with Jetty's own TLS: the key and certificate from a key store
 * ({@code jolt.http.tls.keystore}, PKCS12 unless {@code .type} says otherwise), and the store
 * that instances trust when they forward to each other ({@code jolt.http.tls.truststore}; by
 * default the key store itself, as when every instance carries the service's one certificate).
 * When configured, the API listens on HTTPS only.
 */
public record HttpTls(Path keystore, String password, String type, Path truststore, String truststorePassword) {
    /** The settings it reads (typed, defaulted and documented in the service's configuration). */
    public static final String KEYSTORE = "jolt.http.tls.keystore";
    public static final String KEYSTORE_PASSWORD = "jolt.http.tls.keystore.password";
    public static final String KEYSTORE_TYPE = "jolt.http.tls.keystore.type";
    public static final String TRUSTSTORE = "jolt.http.tls.truststore";
    public static final String TRUSTSTORE_PASSWORD = "jolt.http.tls.truststore.password";

    public static Optional<HttpTls> from(Function<String, String> config) {
        String keystore = config.apply(KEYSTORE);
        if (keystore == null || keystore.isBlank()) {
            return Optional.empty();
        }
        Path store = Path.of(keystore);
        if (!Files.isReadable(store)) {
            throw new IllegalArgumentException(KEYSTORE + ": cannot read " + store.toAbsolutePath());
        }
        String password = Optional.ofNullable(config.apply(KEYSTORE_PASSWORD)).orElse("");
        String type = Optional.ofNullable(config.apply(KEYSTORE_TYPE)).orElse("PKCS12");
        Path trust = Optional.ofNullable(config.apply(TRUSTSTORE)).map(Path::of).orElse(store);
        String trustPassword = Optional.ofNullable(config.apply(TRUSTSTORE_PASSWORD)).orElse(config.apply(TRUSTSTORE) == null ? password : "");
        return Optional.of(new HttpTls(store, password, type, trust, trustPassword));
    }

    /** The HTTPS connector Javalin serves on, in place of its plain one. */
    Connector connector(Server server, HttpConfiguration http, String host, int port) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(keystore.toAbsolutePath().toString());
        ssl.setKeyStorePassword(password);
        ssl.setKeyStoreType(type);
        http.addCustomizer(new SecureRequestCustomizer());
        ServerConnector connector = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"), new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        return connector;
    }

    /** What an instance trusts when it forwards a request to another. */
    SSLContext clientContext() {
        try (InputStream in = Files.newInputStream(truststore)) {
            KeyStore store = KeyStore.getInstance(truststore.equals(keystore) ? type : KeyStore.getDefaultType());
            store.load(in, truststorePassword.toCharArray());
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(TRUSTSTORE + ": cannot load " + truststore.toAbsolutePath() + ": " + e.getMessage(), e);
        }
    }
}
