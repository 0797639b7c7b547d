package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SASL/OAUTHBEARER (issue 22) on SASL_SSL listeners, with Kafka's Java client: one listener takes unsecured tokens
 * (Kafka's default validator, for tests) and requires a scope; the other validates signed tokens against a JSON Web
 * Key Set, as Kafka's OAuthBearerValidatorCallbackHandler does, the client reading its token from a file as Kafka's
 * OAuthBearerLoginCallbackHandler can. A token signed by another key, or without the scope, is refused.
 */
class OAuthBearerIT {

    private static final String LOGIN_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";
    private static final String ALLOWED_URLS = "org.apache.kafka.sasl.oauthbearer.allowed.urls";

    @TempDir
    static Path dir;
    private static TestCertificates certificates;
    private static SpoolProcess broker;
    private static KeyPair identityProvider;
    private static String previousAllowedUrls;

    @BeforeAll
    static void start() throws Exception {
        certificates = TestCertificates.authority(dir);
        Path server = certificates.signed("server", "CN=localhost", "ip:127.0.0.1,dns:localhost");
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        identityProvider = generator.generateKeyPair();
        RSAPublicKey key = (RSAPublicKey) identityProvider.getPublic();
        Path keySet = Files.writeString(dir.resolve("jwks.json"), "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"idp-1\","
                + "\"use\":\"sig\",\"n\":\"" + unsigned(key.getModulus()) + "\",\"e\":\""
                + unsigned(key.getPublicExponent()) + "\"}]}");
        broker = SpoolProcess.startIn(dir.resolve("data"),
                "listeners=PLAINTEXT://127.0.0.1:0,UNSECURED://127.0.0.1:0,SIGNED://127.0.0.1:0",
                "group.initial.rebalance.delay.ms=0",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,UNSECURED:SASL_SSL,SIGNED:SASL_SSL",
                "sasl.enabled.mechanisms=OAUTHBEARER",
                "listener.name.unsecured.oauthbearer.sasl.jaas.config=" + LOGIN_MODULE + " required "
                        + "unsecuredValidatorRequiredScope=\"spool\";",
                "listener.name.signed.oauthbearer.sasl.server.callback.handler.class="
                        + "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler",
                "listener.name.signed.oauthbearer.sasl.oauthbearer.jwks.endpoint.url=" + keySet.toUri(),
                "sasl.oauthbearer.expected.audience=spool",
                "ssl.keystore.type=PKCS12", "ssl.keystore.location=" + server,
                "ssl.keystore.password=" + TestCertificates.PASSWORD);
        previousAllowedUrls = System.getProperty(ALLOWED_URLS);
    }

    @AfterAll
    static void stop() throws Exception {
        if (previousAllowedUrls == null) {
            System.clearProperty(ALLOWED_URLS);
        } else {
            System.setProperty(ALLOWED_URLS, previousAllowedUrls);
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void anUnsecuredTokenWithTheRequiredScopeProducesAndConsumes() throws Exception {
        SecureClients.roundTrip(unsecuredClient("alice", "spool"), "oauth-unsecured");
    }

    @Test
    void anUnsecuredTokenWithoutTheRequiredScopeIsRefused() {
        assertThat(SecureClients.describeClusterFailure(unsecuredClient("alice", "other")))
                .isInstanceOf(SaslAuthenticationException.class).hasMessageContaining("insufficient_scope");
    }

    @Test
    void aTokenSignedByTheProvidersKeyProducesAndConsumes() throws Exception {
        SecureClients.roundTrip(signedClient(token(identityProvider.getPrivate(), "bob", "spool")), "oauth-signed");
    }

    @Test
    void aTokenSignedByAnotherKeyOrForAnotherAudienceIsRefused() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        PrivateKey forger = generator.generateKeyPair().getPrivate();
        assertThat(SecureClients.describeClusterFailure(signedClient(token(forger, "bob", "spool"))))
                .isInstanceOf(SaslAuthenticationException.class).hasMessageContaining("invalid_token");
        assertThat(SecureClients.describeClusterFailure(signedClient(
                token(identityProvider.getPrivate(), "bob", "elsewhere"))))
                .isInstanceOf(SaslAuthenticationException.class).hasMessageContaining("invalid_token");
        // An unsecured token on the listener that wants signed ones.
        assertThat(SecureClients.describeClusterFailure(SecureClients.with(unsecuredClient("bob", "spool"),
                CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.listenerPorts().get("SIGNED"))))
                .isInstanceOf(SaslAuthenticationException.class);
    }

    /** Kafka's default client login: an unsecured token naming {@code subject} with {@code scope}. */
    private static Map<String, Object> unsecuredClient(String subject, String scope) {
        Map<String, Object> settings = tls("UNSECURED");
        settings.put(SaslConfigs.SASL_JAAS_CONFIG, LOGIN_MODULE + " required unsecuredLoginStringClaim_sub=\""
                + subject + "\" unsecuredLoginListClaim_scope=\"," + scope + "\";");
        return settings;
    }

    /** Kafka's OAuth login handler reading the token from a file (a token endpoint URL of the file: scheme). */
    private static Map<String, Object> signedClient(String token) throws Exception {
        Path file = Files.createTempFile(dir, "token", ".jwt");
        Files.writeString(file, token);
        String url = file.toUri().toString();
        String allowed = System.getProperty(ALLOWED_URLS);
        System.setProperty(ALLOWED_URLS, allowed == null || allowed.isEmpty() ? url : allowed + "," + url);
        Map<String, Object> settings = tls("SIGNED");
        settings.put(SaslConfigs.SASL_JAAS_CONFIG, LOGIN_MODULE + " required ;");
        settings.put(SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS,
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler");
        settings.put(SaslConfigs.SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL, url);
        return settings;
    }

    private static Map<String, Object> tls(String listener) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.listenerPorts().get(listener));
        settings.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
        settings.put(SaslConfigs.SASL_MECHANISM, "OAUTHBEARER");
        settings.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        settings.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificates.truststore().toString());
        settings.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, TestCertificates.PASSWORD);
        return settings;
    }

    /** An RS256 token of the provider's key id for {@code subject} and {@code audience}, valid for ten minutes. */
    private static String token(PrivateKey key, String subject, String audience) throws Exception {
        long now = System.currentTimeMillis() / 1000;
        String header = "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"idp-1\"}";
        String claims = "{\"sub\":\"" + subject + "\",\"aud\":\"" + audience + "\",\"iss\":\"test-idp\",\"iat\":"
                + now + ",\"exp\":" + (now + 600) + ",\"scope\":\"spool\"}";
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String input = base64.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
        Signature signature = Signature.getInstance("SHA256withRSA");
        signature.initSign(key);
        signature.update(input.getBytes(StandardCharsets.US_ASCII));
        return input + "." + base64.encodeToString(signature.sign());
    }

    /** A JWK number: big-endian, no sign byte, base64url. */
    private static String unsigned(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            bytes = Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
