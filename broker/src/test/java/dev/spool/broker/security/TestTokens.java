package dev.spool.broker.security;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/** Builds JSON Web Tokens and key sets for tests, with the JDK's signatures. */
final class TestTokens {

    private TestTokens() {
    }

    static KeyPair rsa() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    static KeyPair ec() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    static String unsecured(Map<String, ?> claims) {
        return base64(json(Map.of("alg", "none"))) + "." + base64(json(claims)) + ".";
    }

    static String signed(String algorithm, String keyId, PrivateKey key, Map<String, ?> claims)
            throws GeneralSecurityException {
        String input = base64(json(Map.of("alg", algorithm, "kid", keyId, "typ", "JWT"))) + "." + base64(json(claims));
        Signature signature = switch (algorithm) {
            case "RS256" -> Signature.getInstance("SHA256withRSA");
            case "PS256" -> {
                Signature pss = Signature.getInstance("RSASSA-PSS");
                pss.setParameter(new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1));
                yield pss;
            }
            case "ES256" -> Signature.getInstance("SHA256withECDSAinP1363Format");
            default -> throw new IllegalArgumentException(algorithm);
        };
        signature.initSign(key);
        signature.update(input.getBytes(StandardCharsets.US_ASCII));
        return input + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(signature.sign());
    }

    /** A JSON Web Key of {@code pair}'s public key. */
    static Map<String, Object> jwk(String keyId, KeyPair pair) {
        if (pair.getPublic() instanceof RSAPublicKey rsa) {
            return Map.of("kty", "RSA", "kid", keyId, "use", "sig", "n", number(rsa.getModulus()),
                    "e", number(rsa.getPublicExponent()));
        }
        ECPublicKey ec = (ECPublicKey) pair.getPublic();
        return Map.of("kty", "EC", "kid", keyId, "crv", "P-256", "x", number(ec.getW().getAffineX()),
                "y", number(ec.getW().getAffineY()));
    }

    static byte[] keySet(List<Map<String, Object>> keys) {
        return json(Map.of("keys", keys)).getBytes(StandardCharsets.UTF_8);
    }

    static long secondsFromNow(long nowMs, long seconds) {
        return nowMs / 1000 + seconds;
    }

    private static String number(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            bytes = Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String base64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    static String json(Object value) {
        if (value instanceof Map<?, ?> map) {
            StringJoiner members = new StringJoiner(",", "{", "}");
            map.forEach((name, member) -> members.add(json(name) + ":" + json(member)));
            return members.toString();
        }
        if (value instanceof List<?> list) {
            StringJoiner elements = new StringJoiner(",", "[", "]");
            list.forEach(element -> elements.add(json(element)));
            return elements.toString();
        }
        if (value instanceof String text) {
            return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        }
        return String.valueOf(value);
    }
}
