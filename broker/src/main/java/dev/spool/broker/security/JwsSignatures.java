package dev.spool.broker.security;

import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;

/**
 * Stateless. Checks a JWS signature (RFC 7518 section 3) by the JDK's providers: RS*, PS* and ES* at 256, 384 and 512
 * bits, ES* only on its own curve. A header with critical extensions ({@code crit}) is refused: none is understood.
 */
final class JwsSignatures {

    private JwsSignatures() {
    }

    /** Whether {@code jwt} is signed by {@code key} with its header's algorithm; an unknown algorithm is not. */
    static boolean verify(Jwt jwt, PublicKey key) throws InvalidTokenException {
        if (jwt.header().containsKey("crit")) {
            throw new InvalidTokenException("the token names critical header extensions " + jwt.header().get("crit"));
        }
        String algorithm = jwt.algorithm();
        if (algorithm == null || algorithm.length() != 5) {
            throw new InvalidTokenException("unsupported signature algorithm " + algorithm);
        }
        String bits = algorithm.substring(2);
        if (!bits.equals("256") && !bits.equals("384") && !bits.equals("512")) {
            throw new InvalidTokenException("unsupported signature algorithm " + algorithm);
        }
        try {
            Signature signature;
            switch (algorithm.substring(0, 2)) {
                case "RS" -> {
                    requireKey(key instanceof RSAPublicKey, algorithm);
                    signature = Signature.getInstance("SHA" + bits + "withRSA");
                }
                case "PS" -> {
                    requireKey(key instanceof RSAPublicKey, algorithm);
                    signature = Signature.getInstance("RSASSA-PSS");
                    String digest = "SHA-" + bits;
                    signature.setParameter(new PSSParameterSpec(digest, "MGF1", new MGF1ParameterSpec(digest),
                            Integer.parseInt(bits) / 8, 1));
                }
                case "ES" -> {
                    // ES256 signs on P-256, ES384 on P-384, ES512 on P-521 (RFC 7518 section 3.4).
                    int fieldBits = bits.equals("512") ? 521 : Integer.parseInt(bits);
                    requireKey(key instanceof ECPublicKey ec && ec.getParams().getCurve().getField().getFieldSize()
                            == fieldBits, algorithm);
                    // JWS carries r and s side by side (IEEE P1363), not in DER.
                    signature = Signature.getInstance("SHA" + bits + "withECDSAinP1363Format");
                }
                default -> throw new InvalidTokenException("unsupported signature algorithm " + algorithm);
            }
            signature.initVerify(key);
            signature.update(jwt.signingInput());
            return signature.verify(jwt.signature());
        } catch (GeneralSecurityException e) {
            throw new InvalidTokenException("the signature cannot be checked: " + e.getMessage());
        }
    }

    private static void requireKey(boolean matches, String algorithm) throws InvalidTokenException {
        if (!matches) {
            throw new InvalidTokenException("the key named by the token is not a key for " + algorithm);
        }
    }
}
