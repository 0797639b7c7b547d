package dev.spool.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JwksTokenValidatorTest {

    private static final long HOUR_MS = 3_600_000;

    private long now = System.currentTimeMillis();
    private KeyPair rsa;
    private KeyPair ec;
    private final AtomicReference<byte[]> keySet = new AtomicReference<>();
    private JwksTokenValidator validator;

    @BeforeEach
    void keys() throws Exception {
        rsa = TestTokens.rsa();
        ec = TestTokens.ec();
        keySet.set(TestTokens.keySet(List.of(TestTokens.jwk("rsa-1", rsa), TestTokens.jwk("ec-1", ec))));
        validator = validator(Set.of(), null);
    }

    @AfterEach
    void close() {
        validator.close();
    }

    private JwksTokenValidator validator(Set<String> audiences, String issuer) throws IOException {
        return new JwksTokenValidator(keySet::get, new JwksTokenValidator.Expectations("sub", "scope", audiences,
                issuer, 30_000), HOUR_MS, () -> now);
    }

    private Map<String, Object> claims(String subject) {
        return Map.of("sub", subject, "exp", TestTokens.secondsFromNow(now, 300), "iat",
                TestTokens.secondsFromNow(now, 0), "scope", "read write", "aud", List.of("spool"), "iss", "idp");
    }

    @Test
    void tokensSignedByTheSetsRsaAndEcKeysAreValid() throws Exception {
        TokenValidator.ValidToken rs = validator.validate(TestTokens.signed("RS256", "rsa-1", rsa.getPrivate(),
                claims("alice")));
        TokenValidator.ValidToken ps = validator.validate(TestTokens.signed("PS256", "rsa-1", rsa.getPrivate(),
                claims("bob")));
        TokenValidator.ValidToken es = validator.validate(TestTokens.signed("ES256", "ec-1", ec.getPrivate(),
                claims("carol")));

        assertThat(List.of(rs.principal(), ps.principal(), es.principal())).containsExactly("alice", "bob", "carol");
        assertThat(rs.scopes()).as("a string scope is one scope, as Kafka reads it").containsExactly("read write");
        assertThat(rs.expiresAtMs()).isEqualTo(TestTokens.secondsFromNow(now, 300) * 1000);
    }

    @Test
    void aTokenSignedByAnotherKeyOrAlteredIsRefused() throws Exception {
        KeyPair stranger = TestTokens.rsa();
        String forged = TestTokens.signed("RS256", "rsa-1", stranger.getPrivate(), claims("alice"));
        assertThatThrownBy(() -> validator.validate(forged)).hasMessageContaining("does not verify");

        String genuine = TestTokens.signed("RS256", "rsa-1", rsa.getPrivate(), claims("alice"));
        String[] parts = genuine.split("\\.");
        String altered = parts[0] + "." + TestTokens.signed("RS256", "rsa-1", rsa.getPrivate(), claims("mallory"))
                .split("\\.")[1] + "." + parts[2];
        assertThatThrownBy(() -> validator.validate(altered)).hasMessageContaining("does not verify");

        assertThatThrownBy(() -> validator.validate(TestTokens.unsecured(claims("alice"))))
                .isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> validator.validate(TestTokens.signed("ES256", "rsa-1", ec.getPrivate(),
                claims("alice")))).hasMessageContaining("not a key for ES256");
    }

    @Test
    void expiryIssuerAndAudienceAreChecked() throws Exception {
        String token = TestTokens.signed("RS256", "rsa-1", rsa.getPrivate(), claims("alice"));
        now += 300_000 + 30_000; // past the expiry by the clock skew allowed
        assertThatThrownBy(() -> validator.validate(token)).hasMessageContaining("expired");
        now -= 330_000;

        try (JwksTokenValidator strict = validator(Set.of("other"), null)) {
            assertThatThrownBy(() -> strict.validate(token)).hasMessageContaining("audience");
        }
        try (JwksTokenValidator strict = validator(Set.of("spool", "other"), "idp")) {
            assertThat(strict.validate(token).principal()).isEqualTo("alice");
        }
        try (JwksTokenValidator strict = validator(Set.of(), "another-idp")) {
            assertThatThrownBy(() -> strict.validate(token)).hasMessageContaining("issuer");
        }
    }

    @Test
    void aRotatedKeyIsFetchedSoonAfterATokenNamesIt() throws Exception {
        KeyPair rotated = TestTokens.rsa();
        keySet.set(TestTokens.keySet(List.of(TestTokens.jwk("rsa-2", rotated))));
        String token = TestTokens.signed("RS256", "rsa-2", rotated.getPrivate(), claims("alice"));
        now += 10_000; // the set was read at start; an unknown key may read it again 10 s later

        assertThatThrownBy(() -> validator.validate(token)).hasMessageContaining("no key rsa-2");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!validator.keyIds().contains("rsa-2") && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(validator.validate(token).principal()).isEqualTo("alice");
    }

    @Test
    void aKeySetWithoutSigningKeysIsRefused() {
        keySet.set(TestTokens.keySet(List.of(Map.of("kty", "oct", "k", "c2VjcmV0"))));
        assertThatThrownBy(() -> validator(Set.of(), null)).hasMessageContaining("no signing key");
        keySet.set("{}".getBytes());
        assertThatThrownBy(() -> validator(Set.of(), null)).hasMessageContaining("no \"keys\" list");
    }

    @Test
    void unsignedAndSymmetricTokensNamingAKeyAreRefusedForTheirAlgorithm() throws Exception {
        String claims = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                TestTokens.json(claims("alice")).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        for (String algorithm : List.of("none", "HS256")) {
            String header = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                    ("{\"alg\":\"" + algorithm + "\",\"kid\":\"rsa-1\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThatThrownBy(() -> validator.validate(header + "." + claims + ".c2lnbmF0dXJl"))
                    .as(algorithm).hasMessageContaining("unsupported signature algorithm");
        }
    }

    @Test
    void aTokenNotYetValidOrWithoutAnIssueTimeOrWithRepeatedClaimsIsRefused() throws Exception {
        Map<String, Object> early = new java.util.HashMap<>(claims("alice"));
        early.put("nbf", TestTokens.secondsFromNow(now, 120));
        assertThatThrownBy(() -> validator.validate(TestTokens.signed("RS256", "rsa-1", rsa.getPrivate(), early)))
                .hasMessageContaining("not valid before");

        Map<String, Object> undated = new java.util.HashMap<>(claims("alice"));
        undated.remove("iat");
        assertThatThrownBy(() -> validator.validate(TestTokens.signed("RS256", "rsa-1", rsa.getPrivate(), undated)))
                .hasMessageContaining("no issue time");

        String repeated = TestTokens.signed("RS256", "rsa-1", rsa.getPrivate(), claims("alice"));
        String[] parts = repeated.split("\\.");
        String twoSubjects = TestTokens.json(claims("alice")).replaceFirst("\\{", "{\"sub\":null,");
        String forged = parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                twoSubjects.getBytes(java.nio.charset.StandardCharsets.UTF_8)) + "." + parts[2];
        assertThatThrownBy(() -> validator.validate(forged)).hasMessageContaining("malformed");
    }

    @Test
    void anAudienceStringIsOneAudience() throws Exception {
        Map<String, Object> spaced = new java.util.HashMap<>(claims("alice"));
        spaced.put("aud", "other spool");
        try (JwksTokenValidator strict = validator(Set.of("spool"), null)) {
            assertThatThrownBy(() -> strict.validate(TestTokens.signed("RS256", "rsa-1", rsa.getPrivate(), spaced)))
                    .hasMessageContaining("audience");
        }
    }

    @Test
    void aRefreshIntervalThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> new JwksTokenValidator(keySet::get, new JwksTokenValidator.Expectations("sub",
                "scope", Set.of(), null, 0), 0, () -> now)).isInstanceOf(IllegalArgumentException.class);
    }
}
