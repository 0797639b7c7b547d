package dev.spool.broker.network;

import dev.spool.broker.config.ConfigException;
import dev.spool.broker.config.ListenerTls;
import dev.spool.broker.config.PrincipalMappingRules;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * Immutable: what an SSL listener serves with, its TLS context and its principal mapping rules, built from its
 * settings before the broker starts anything, as Kafka reads them: a JKS or PKCS12 key store, or
 * PEM (a file holding the key and the chain, or both given inline); a trust store of the same kinds for client
 * certificates; {@code ssl.client.auth}; the enabled TLS versions and cipher suites. JDK's TLS (SSLEngine), which
 * needs no native library. A setting that does not work stops start-up, naming the listener and the problem.
 */
public final class ServerTls {

    private final SslContext context;
    private final PrincipalMappingRules principalRules;

    private ServerTls(SslContext context, PrincipalMappingRules principalRules) {
        this.context = context;
        this.principalRules = principalRules;
    }

    /** The listener's TLS; a ConfigException naming the listener when its settings do not work. */
    public static ServerTls of(ListenerTls tls) {
        return new ServerTls(context(tls), PrincipalMappingRules.parse(tls.principalMappingRules()));
    }

    SslContext context() {
        return context;
    }

    PrincipalMappingRules principalRules() {
        return principalRules;
    }

    private static SslContext context(ListenerTls tls) {
        try {
            SslContextBuilder builder = withKey(tls);
            withTrust(builder, tls);
            builder.sslProvider(SslProvider.JDK).clientAuth(clientAuth(tls.clientAuth()))
                    .protocols(tls.enabledProtocols());
            if (!tls.cipherSuites().isEmpty()) {
                builder.ciphers(tls.cipherSuites());
            }
            return builder.build();
        } catch (NoSuchFileException e) {
            throw new ConfigException("Cannot set up TLS on listener " + tls.listenerName() + ": no such file "
                    + e.getMessage());
        } catch (GeneralSecurityException | IOException | IllegalArgumentException e) {
            throw new ConfigException("Cannot set up TLS on listener " + tls.listenerName() + ": " + e.getMessage());
        }
    }

    private static SslContextBuilder withKey(ListenerTls tls) throws GeneralSecurityException, IOException {
        if ("PEM".equalsIgnoreCase(tls.keystoreType())) {
            // As Kafka: a PEM key's password is ssl.key.password; the key store's does not apply to PEM.
            String password = tls.keyPassword();
            if (tls.keystoreKey() != null) {
                if (tls.keystoreCertificateChain() == null) {
                    throw new IllegalArgumentException("ssl.keystore.key is set without ssl.keystore.certificate.chain");
                }
                return SslContextBuilder.forServer(stream(tls.keystoreCertificateChain()), stream(tls.keystoreKey()),
                        password);
            }
            byte[] pem = Files.readAllBytes(Path.of(required(tls.keystoreLocation(), "ssl.keystore.location")));
            return SslContextBuilder.forServer(new ByteArrayInputStream(pem), new ByteArrayInputStream(pem), password);
        }
        char[] storePassword = chars(tls.keystorePassword());
        KeyStore keys = load(tls.keystoreType(), required(tls.keystoreLocation(), "ssl.keystore.location"),
                storePassword);
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, tls.keyPassword() != null ? tls.keyPassword().toCharArray() : storePassword);
        return SslContextBuilder.forServer(factory);
    }

    /** Without a trust store, the JDK's certificate authorities check the client certificates presented. */
    private static void withTrust(SslContextBuilder builder, ListenerTls tls) throws GeneralSecurityException,
            IOException {
        if ("PEM".equalsIgnoreCase(tls.truststoreType())) {
            if (tls.truststoreCertificates() != null) {
                builder.trustManager(stream(tls.truststoreCertificates()));
            } else if (tls.truststoreLocation() != null) {
                try (InputStream certificates = Files.newInputStream(Path.of(tls.truststoreLocation()))) {
                    builder.trustManager(certificates);
                }
            }
            return;
        }
        if (tls.truststoreLocation() == null) {
            return;
        }
        KeyStore trusted = load(tls.truststoreType(), tls.truststoreLocation(), chars(tls.truststorePassword()));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trusted);
        builder.trustManager(factory);
    }

    private static KeyStore load(String type, String location, char[] password) throws GeneralSecurityException,
            IOException {
        KeyStore store = KeyStore.getInstance(type);
        try (InputStream in = Files.newInputStream(Path.of(location))) {
            store.load(in, password);
        }
        return store;
    }

    static ClientAuth clientAuth(String setting) {
        return switch (setting.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "required" -> ClientAuth.REQUIRE;
            case "requested" -> ClientAuth.OPTIONAL;
            default -> ClientAuth.NONE;
        };
    }

    private static String required(String value, String setting) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(setting + " is not set");
        }
        return value;
    }

    private static char[] chars(String password) {
        return password == null ? null : password.toCharArray();
    }

    private static InputStream stream(String pem) {
        return new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII));
    }
}
