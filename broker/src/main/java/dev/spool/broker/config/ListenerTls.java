package dev.spool.broker.config;

import java.util.List;

/**
 * Immutable: the TLS settings in force on one SSL listener ({@link TlsSettings#forListener}); null where not set.
 * The secrets are left out of {@link #toString}.
 */
public record ListenerTls(String listenerName, String keystoreType, String keystoreLocation, String keystorePassword,
                          String keyPassword, String keystoreKey, String keystoreCertificateChain,
                          String truststoreType, String truststoreLocation, String truststorePassword,
                          String truststoreCertificates, String clientAuth, List<String> enabledProtocols,
                          String protocol, List<String> cipherSuites, String principalMappingRules) {

    @Override
    public String toString() {
        return "ListenerTls(" + listenerName + ", keystore " + keystoreType + " " + keystoreLocation + ", truststore "
                + truststoreType + " " + truststoreLocation + ", client auth " + clientAuth + ", " + enabledProtocols
                + ")";
    }
}
