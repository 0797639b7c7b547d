package dev.spool.broker.quorum;

import dev.spool.broker.config.PrincipalMappingRules;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Who the Raft port talks to: a peer whose certificate chains to the controller listener's trust store and, when
 * ACLs are on, whose certificate name (mapped by the listener's {@code ssl.principal.mapping.rules}) is a super
 * user's. Kafka lets only principals allowed CLUSTER_ACTION speak Raft on its controller listener; what a Raft peer
 * says is the cluster's metadata, so a client certificate from the same authority must not pass. Without ACLs, any
 * certificate the trust store vouches for passes, as any client may send Kafka's controller listener anything then.
 * Both directions: the voters accept only such peers and connect only to such peers. Thread-safe (immutable).
 */
final class RaftPeerTrust extends X509ExtendedTrustManager {

    private final X509ExtendedTrustManager trusted;
    private final PrincipalMappingRules rules;
    /** {@code User:<name>} principals allowed; null for any trusted certificate. */
    private final Set<String> allowed;

    RaftPeerTrust(X509ExtendedTrustManager trusted, PrincipalMappingRules rules, Set<String> allowed) {
        this.trusted = trusted;
        this.rules = rules;
        this.allowed = allowed == null ? null : Set.copyOf(allowed);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        trusted.checkClientTrusted(chain, authType);
        requireNode(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        trusted.checkClientTrusted(chain, authType, socket);
        requireNode(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        trusted.checkClientTrusted(chain, authType, engine);
        requireNode(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        trusted.checkServerTrusted(chain, authType);
        requireNode(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        trusted.checkServerTrusted(chain, authType, socket);
        requireNode(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        trusted.checkServerTrusted(chain, authType, engine);
        requireNode(chain);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return trusted.getAcceptedIssuers();
    }

    private void requireNode(X509Certificate[] chain) throws CertificateException {
        if (allowed == null) {
            return;
        }
        String subject = chain[0].getSubjectX500Principal().getName();
        Optional<String> name = rules.map(subject);
        if (name.isEmpty() || !allowed.contains("User:" + name.get())) {
            throw new CertificateException("Raft peer " + subject + " is not a super user (super.users), which the "
                    + "quorum's voters must be when ACLs are on");
        }
    }
}
