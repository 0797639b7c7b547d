package dev.spool.broker.network;

import dev.spool.broker.config.ListenerTls;
import dev.spool.broker.config.PrincipalMappingRules;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an SSL listener serves with, its TLS context and its principal mapping rules, built from its settings before
 * the broker starts anything, as Kafka reads them: a JKS or PKCS12 key store, or PEM (a file holding the key and
 * the chain, or both given inline); a trust store of the same kinds for client certificates;
 * {@code ssl.client.auth}; the enabled TLS versions and cipher suites. JDK's TLS (SSLEngine), which needs no native
 * library. A setting that does not work stops start-up, naming the listener and the problem.
 *
 * <p>A renewed certificate is taken up without a restart: when the key store or trust store file has changed
 * (looked at no more than once every {@value #CHECK_INTERVAL_MS} ms, as new connections come), the context is built
 * again from the same settings and serves the connections that come after; the open ones keep theirs. A file that
 * does not load (half written, a wrong password) leaves the context as it was, with a warning, and is tried again
 * when it changes. Thread-safe.
 */
public final class ServerTls {

    private static final Logger LOG = LoggerFactory.getLogger(ServerTls.class);
    static final long CHECK_INTERVAL_MS = 1_000;
    /** A stamp that failed to load is tried again after this long: the failure may have been the moment's. */
    private static final long RETRY_FAILED_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final ListenerTls settings;
    private final PrincipalMappingRules principalRules;
    private volatile SslContext context;
    /** Set by the one thread looking at the files; the others meanwhile go on with the context there is. */
    private final AtomicBoolean checking = new AtomicBoolean();
    /** The files {@link #context} was built from; the last stamp that failed to load, and when, not to warn twice. */
    private StoreFiles loaded;
    private StoreFiles failed;
    private long failedAtNanos;
    private volatile long nextCheckNanos;

    /** {@code loaded}: the stamp taken before the files were read, so that one changed meanwhile is read again. */
    private ServerTls(ListenerTls settings, SslContext context, PrincipalMappingRules principalRules,
                      StoreFiles loaded) {
        this.settings = settings;
        this.context = context;
        this.principalRules = principalRules;
        this.loaded = loaded;
        this.nextCheckNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CHECK_INTERVAL_MS);
    }

    /** The listener's TLS; a ConfigException naming the listener when its settings do not work. */
    public static ServerTls of(ListenerTls tls) {
        StoreFiles before = files(tls);
        return new ServerTls(tls, TlsContexts.server(tls), PrincipalMappingRules.parse(tls.principalMappingRules()), before);
    }

    /**
     * The context for a new connection: reloaded first when the store files have changed. Called on the event
     * loops; only one looks at the files at a time and none waits for it, so a rebuild (tens of milliseconds, once
     * per renewal) holds up only the loop that does it.
     */
    SslContext context() {
        long now = System.nanoTime();
        if (now - nextCheckNanos >= 0 && checking.compareAndSet(false, true)) {
            try {
                nextCheckNanos = now + TimeUnit.MILLISECONDS.toNanos(CHECK_INTERVAL_MS);
                reloadIfChanged(now);
            } finally {
                checking.set(false);
            }
        }
        return context;
    }

    private void reloadIfChanged(long nowNanos) {
        StoreFiles now = files(settings);
        if (now.equals(loaded) || now.equals(failed) && nowNanos - failedAtNanos < RETRY_FAILED_NANOS) {
            return;
        }
        try {
            context = TlsContexts.server(settings);
            loaded = now;
            failed = null;
            LOG.info("Listener {}: key store or trust store changed, new connections use it", settings.listenerName());
        } catch (RuntimeException e) { // a ConfigException, or whatever a damaged file makes the JDK throw
            boolean warned = now.equals(failed);
            failed = now;
            failedAtNanos = nowNanos;
            if (!warned) {
                LOG.warn("Listener {}: key store or trust store changed but does not load, still serving the "
                        + "previous one: {}", settings.listenerName(), e.getMessage());
            }
        }
    }

    private static StoreFiles files(ListenerTls tls) {
        return StoreFiles.of(tls.keystoreLocation(), tls.truststoreLocation());
    }

    PrincipalMappingRules principalRules() {
        return principalRules;
    }

    static ClientAuth clientAuth(String setting) {
        return switch (setting.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "required" -> ClientAuth.REQUIRE;
            case "requested" -> ClientAuth.OPTIONAL;
            default -> ClientAuth.NONE;
        };
    }
}
