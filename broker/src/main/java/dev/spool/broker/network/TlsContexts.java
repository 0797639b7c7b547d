package dev.spool.broker.network;

import dev.spool.broker.config.ConfigException;
import dev.spool.broker.config.ListenerTls;
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
 * TLS contexts built from a listener's settings, as Kafka reads them: a JKS or PKCS12 key store, or PEM (a file
 * holding the key and the chain, or both given inline); a trust store of the same kinds; the enabled TLS versions
 * and cipher suites. The server side of a listener, and the client side a node uses to reach that listener on
 * the other nodes (its key store then the certificate it presents, its trust store what it checks the peer's
 * against). JDK's TLS (SSLEngine), which needs no native library. Stateless.
 */
public final class TlsContexts {

    private TlsContexts() {
    }

    /** The listener's server context; a ConfigException naming the listener when its settings do not work. */
    public static SslContext server(ListenerTls tls) {
        return build(tls, true, null);
    }

    /**
     * The context a node connects to {@code tls}'s listener on the other nodes with; without a key store it
     * presents no certificate, without a trust store the JDK's certificate authorities check the peer's. With
     * {@code verifyHostname} the peer's certificate must name the host connected to (Kafka's
     * {@code ssl.endpoint.identification.algorithm=https}); without, any certificate the trust store vouches for.
     */
    public static SslContext client(ListenerTls tls, boolean verifyHostname) {
        return build(tls, false, verifyHostname ? "HTTPS" : null);
    }

    private static SslContext build(ListenerTls tls, boolean server, String endpointIdentification) {
        try {
            SslContextBuilder builder = withKey(tls, server);
            if (!server) {
                builder.endpointIdentificationAlgorithm(endpointIdentification); // Netty's client default is HTTPS
            }
            withTrust(builder, tls);
            builder.sslProvider(SslProvider.JDK).protocols(tls.enabledProtocols());
            if (server) {
                builder.clientAuth(ServerTls.clientAuth(tls.clientAuth()));
            }
            if (!tls.cipherSuites().isEmpty()) {
                builder.ciphers(tls.cipherSuites());
            }
            return builder.build();
        } catch (NoSuchFileException e) {
            throw new ConfigException("Cannot set up TLS " + (server ? "on" : "to") + " listener "
                    + tls.listenerName() + ": no such file " + e.getMessage());
        } catch (GeneralSecurityException | IOException | IllegalArgumentException e) {
            throw new ConfigException("Cannot set up TLS " + (server ? "on" : "to") + " listener "
                    + tls.listenerName() + ": " + e.getMessage());
        }
    }

    private static SslContextBuilder withKey(ListenerTls tls, boolean server) throws GeneralSecurityException,
            IOException {
        if ("PEM".equalsIgnoreCase(tls.keystoreType()) && (tls.keystoreKey() != null || tls.keystoreLocation() != null
                || server)) {
            // As Kafka: a PEM key's password is ssl.key.password; the key store's does not apply to PEM.
            String password = tls.keyPassword();
            if (tls.keystoreKey() != null) {
                if (tls.keystoreCertificateChain() == null) {
                    throw new IllegalArgumentException("ssl.keystore.key is set without ssl.keystore.certificate.chain");
                }
                return keyed(server, stream(tls.keystoreCertificateChain()), stream(tls.keystoreKey()), password);
            }
            byte[] pem = Files.readAllBytes(Path.of(required(tls.keystoreLocation(), "ssl.keystore.location")));
            return keyed(server, new ByteArrayInputStream(pem), new ByteArrayInputStream(pem), password);
        }
        if (!server && tls.keystoreLocation() == null) {
            return SslContextBuilder.forClient();
        }
        KeyManagerFactory factory = keyManagers(tls);
        return server ? SslContextBuilder.forServer(factory) : SslContextBuilder.forClient().keyManager(factory);
    }

    /** The key store's managers (a JKS or PKCS12 file; the caller checked it is one). */
    public static KeyManagerFactory keyManagers(ListenerTls tls) throws GeneralSecurityException, IOException {
        char[] storePassword = chars(tls.keystorePassword());
        KeyStore keys = load(tls.keystoreType(), required(tls.keystoreLocation(), "ssl.keystore.location"),
                storePassword);
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, tls.keyPassword() != null ? tls.keyPassword().toCharArray() : storePassword);
        return factory;
    }

    private static SslContextBuilder keyed(boolean server, InputStream chain, InputStream key, String password) {
        return server ? SslContextBuilder.forServer(chain, key, password)
                : SslContextBuilder.forClient().keyManager(chain, key, password);
    }

    /** Without a trust store, the JDK's certificate authorities check the peer's certificate. */
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
        builder.trustManager(trustManagers(tls));
    }

    /** The trust store's managers (a JKS or PKCS12 file; the caller checked it is one). */
    public static TrustManagerFactory trustManagers(ListenerTls tls) throws GeneralSecurityException, IOException {
        KeyStore trusted = load(tls.truststoreType(), tls.truststoreLocation(), chars(tls.truststorePassword()));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trusted);
        return factory;
    }

    private static KeyStore load(String type, String location, char[] password) throws GeneralSecurityException,
            IOException {
        KeyStore store = KeyStore.getInstance(type);
        try (InputStream in = Files.newInputStream(Path.of(location))) {
            store.load(in, password);
        }
        return store;
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
