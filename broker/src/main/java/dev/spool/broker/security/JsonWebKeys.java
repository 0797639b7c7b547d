package dev.spool.broker.security;

import java.io.IOException;
import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The signing keys of a JSON Web Key Set (RFC 7517): RSA keys and EC keys on P-256, P-384 and P-521. Keys for
 * encryption ({@code "use":"enc"}) and of other types are left out, as a validator cannot use them. Immutable.
 */
record JsonWebKeys(List<Key> keys) {

    /** One signing key and its key id (null when the set gives none). */
    record Key(String id, PublicKey publicKey) {
    }

    /** The signing keys in the key set {@code json}; an {@link IOException} naming what is malformed. */
    static JsonWebKeys parse(byte[] json) throws IOException {
        if (!(Json.object(json).get("keys") instanceof List<?> entries)) {
            throw new IOException("not a JSON Web Key Set: no \"keys\" list");
        }
        List<Key> keys = new ArrayList<>();
        for (Object entry : entries) {
            if (!(entry instanceof Map<?, ?> jwk) || "enc".equals(jwk.get("use"))) {
                continue;
            }
            PublicKey key = publicKey(jwk);
            if (key != null) {
                keys.add(new Key(jwk.get("kid") instanceof String id ? id : null, key));
            }
        }
        return new JsonWebKeys(List.copyOf(keys));
    }

    /** The key named {@code id}; with no id, the set's only key; else null. */
    PublicKey find(String id) {
        if (id == null) {
            return keys.size() == 1 ? keys.get(0).publicKey() : null;
        }
        for (Key key : keys) {
            if (id.equals(key.id())) {
                return key.publicKey();
            }
        }
        return null;
    }

    private static PublicKey publicKey(Map<?, ?> jwk) throws IOException {
        try {
            if ("RSA".equals(jwk.get("kty"))) {
                return KeyFactory.getInstance("RSA").generatePublic(
                        new RSAPublicKeySpec(number(jwk, "n"), number(jwk, "e")));
            }
            if ("EC".equals(jwk.get("kty"))) {
                String curve = switch (String.valueOf(jwk.get("crv"))) {
                    case "P-256" -> "secp256r1";
                    case "P-384" -> "secp384r1";
                    case "P-521" -> "secp521r1";
                    default -> null;
                };
                if (curve == null) {
                    return null;
                }
                AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
                parameters.init(new ECGenParameterSpec(curve));
                ECPoint point = new ECPoint(number(jwk, "x"), number(jwk, "y"));
                return KeyFactory.getInstance("EC").generatePublic(
                        new ECPublicKeySpec(point, parameters.getParameterSpec(ECParameterSpec.class)));
            }
            return null;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IOException("invalid key " + jwk.get("kid") + ": " + e.getMessage(), e);
        }
    }

    private static BigInteger number(Map<?, ?> jwk, String member) throws IOException {
        if (!(jwk.get(member) instanceof String encoded)) {
            throw new IOException("key " + jwk.get("kid") + " has no member " + member);
        }
        return new BigInteger(1, Base64.getUrlDecoder().decode(encoded));
    }
}
