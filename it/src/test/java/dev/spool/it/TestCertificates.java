package dev.spool.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;

/**
 * A certificate authority and certificates it signed, made with the JDK's keytool in a directory of the test's
 * (EC P-256 keys, valid two days): PKCS12 key stores for the broker ({@code CN=localhost}, its address
 * 127.0.0.1 as a subject alternative name) and for clients, and a PKCS12 trust store and a PEM file of the
 * authority's certificate. Every store has the password {@link #PASSWORD}. Immutable once made.
 */
public final class TestCertificates {

    public static final String PASSWORD = "test-secret";

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** A new authority in {@code dir}, with a trust store of it ({@link #truststore()}, {@link #authorityPem()}). */
    public static TestCertificates authority(Path dir) throws IOException, InterruptedException {
        TestCertificates certificates = new TestCertificates(dir);
        certificates.keytool("-genkeypair", "-alias", "ca", "-dname", "CN=Spool Test CA", "-keyalg", "EC",
                "-groupname", "secp256r1", "-validity", "2", "-ext", "bc:c", "-keystore", "ca.p12",
                "-storetype", "PKCS12", "-storepass", PASSWORD);
        certificates.keytool("-exportcert", "-alias", "ca", "-keystore", "ca.p12", "-storepass", PASSWORD, "-rfc",
                "-file", "ca.pem");
        certificates.keytool("-importcert", "-alias", "ca", "-file", "ca.pem", "-keystore", "truststore.p12",
                "-storetype", "PKCS12", "-storepass", PASSWORD, "-noprompt");
        return certificates;
    }

    /**
     * A PKCS12 key store {@code name.p12} holding a key and its certificate for {@code distinguishedName}, signed by
     * the authority (with the authority's certificate in its chain); {@code alternativeNames} as keytool's SAN
     * extension (e.g. {@code ip:127.0.0.1,dns:localhost}), or null.
     */
    public Path signed(String name, String distinguishedName, String alternativeNames)
            throws IOException, InterruptedException {
        String store = name + ".p12";
        keytool("-genkeypair", "-alias", name, "-dname", distinguishedName, "-keyalg", "EC", "-groupname",
                "secp256r1", "-validity", "2", "-keystore", store, "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-certreq", "-alias", name, "-keystore", store, "-storepass", PASSWORD, "-file", name + ".csr");
        if (alternativeNames == null) {
            keytool("-gencert", "-alias", "ca", "-keystore", "ca.p12", "-storepass", PASSWORD, "-infile",
                    name + ".csr", "-outfile", name + ".pem", "-rfc", "-validity", "2");
        } else {
            keytool("-gencert", "-alias", "ca", "-keystore", "ca.p12", "-storepass", PASSWORD, "-infile",
                    name + ".csr", "-outfile", name + ".pem", "-rfc", "-validity", "2", "-ext",
                    "SAN=" + alternativeNames);
        }
        keytool("-importcert", "-alias", "ca", "-file", "ca.pem", "-keystore", store, "-storepass", PASSWORD,
                "-noprompt");
        keytool("-importcert", "-alias", name, "-file", name + ".pem", "-keystore", store, "-storepass", PASSWORD,
                "-noprompt");
        return dir.resolve(store);
    }

    /**
     * The key and certificate chain of key store {@code name.p12} as one PEM file {@code name-key-and-chain.pem}
     * (an unencrypted PKCS#8 key, then the chain), the form of Kafka's {@code ssl.keystore.type=PEM}.
     */
    public Path pem(String name) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve(name + ".p12"))) {
            store.load(in, PASSWORD.toCharArray());
        }
        StringBuilder pem = new StringBuilder(block("PRIVATE KEY",
                store.getKey(name, PASSWORD.toCharArray()).getEncoded()));
        for (Certificate certificate : store.getCertificateChain(name)) {
            pem.append(block("CERTIFICATE", certificate.getEncoded()));
        }
        return Files.writeString(dir.resolve(name + "-key-and-chain.pem"), pem);
    }

    private static String block(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    public Path truststore() {
        return dir.resolve("truststore.p12");
    }

    public Path authorityPem() {
        return dir.resolve("ca.pem");
    }

    private void keytool(String... arguments) throws IOException, InterruptedException {
        String[] command = new String[arguments.length + 1];
        command[0] = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        System.arraycopy(arguments, 0, command, 1, arguments.length);
        ExternalCommand.Result result = ExternalCommand.run(dir, 60, command);
        if (result.exitCode() != 0) {
            throw new IOException("keytool " + String.join(" ", arguments) + " failed: " + result.output());
        }
    }
}
