package dev.spool.broker.security;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe. Kafka's production validator of OAUTHBEARER tokens: a JWS signed by a key of the identity provider's
 * key set ({@code sasl.oauthbearer.jwks.endpoint.url}, an https:, http: or file: URL), issued (iat), not expired
 * and past its start (nbf) if it has one, from the expected
 * issuer to one of the expected audiences when those are set; the principal is the {@code subClaim} claim. The
 * key set is read at start (a broker that cannot read it does not start), again every {@code refreshMs} on a
 * thread of its own, and soon after a token names a key the set lacks (a rotated key): never on the caller's
 * thread, which is a network thread. {@link #close} stops the refreshing.
 */
public final class JwksTokenValidator implements TokenValidator, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JwksTokenValidator.class);
    /** How soon an unknown key id may fetch the set again: a stream of forged key ids must not hammer the provider. */
    private static final long UNKNOWN_KEY_REFETCH_MS = 10_000;

    /** Where the key set is read from. */
    public interface KeySource {
        byte[] read() throws IOException;
    }

    /** What a token must show besides a good signature. */
    public record Expectations(String subClaim, String scopeClaim, Set<String> audiences, String issuer,
                               long clockSkewMs) {
    }

    private final KeySource source;
    private final Expectations expected;
    private final LongSupplier clock;
    private final ScheduledExecutorService refresher;
    private final AtomicLong lastFetchMs = new AtomicLong();
    private volatile JsonWebKeys keys;

    public JwksTokenValidator(KeySource source, Expectations expected, long refreshMs, LongSupplier clock)
            throws IOException {
        this.source = source;
        this.expected = expected;
        this.clock = clock;
        this.keys = JsonWebKeys.parse(source.read());
        lastFetchMs.set(clock.getAsLong());
        if (keys.keys().isEmpty()) {
            throw new IOException("the key set has no signing key");
        }
        if (refreshMs <= 0) {
            throw new IllegalArgumentException("the key set's refresh interval must be positive, not " + refreshMs);
        }
        this.refresher = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "spool-jwks-refresh");
            thread.setDaemon(true);
            return thread;
        });
        refresher.scheduleWithFixedDelay(this::refresh, refreshMs, refreshMs, TimeUnit.MILLISECONDS);
    }

    /** The key set at {@code url}: https: and http: fetched (10 s at most), file: read. */
    public static KeySource sourceOf(String url) {
        URI uri = URI.create(url);
        if ("file".equals(uri.getScheme())) {
            return () -> Files.readAllBytes(Path.of(uri));
        }
        if ("http".equals(uri.getScheme())) {
            LOG.warn("The JSON Web Key Set is read over plain http ({}): whoever can change it in transit can sign "
                    + "tokens this broker accepts; use https", url);
        } else if (!"https".equals(uri.getScheme())) {
            throw new IllegalArgumentException("not an https:, http: or file: URL: " + url);
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build();
        return () -> {
            try {
                HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                if (response.statusCode() != 200) {
                    throw new IOException("HTTP " + response.statusCode() + " from " + url);
                }
                return response.body();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted fetching " + url, e);
            }
        };
    }

    @Override
    public ValidToken validate(String token) throws InvalidTokenException {
        Jwt jwt = Jwt.parse(token);
        String keyId = jwt.header().get("kid") instanceof String id ? id : null;
        PublicKey key = keys.find(keyId);
        if (key == null) {
            long now = clock.getAsLong();
            long last = lastFetchMs.get();
            if (now - last >= UNKNOWN_KEY_REFETCH_MS && lastFetchMs.compareAndSet(last, now)) {
                try {
                    refresher.execute(this::refresh);
                } catch (RejectedExecutionException closing) {
                    // The listener is closing; this token is refused all the same.
                }
            }
            throw new InvalidTokenException("no key " + keyId + " in the key set");
        }
        if (!JwsSignatures.verify(jwt, key)) {
            throw new InvalidTokenException("the token's signature does not verify with key " + keyId);
        }
        long expires = jwt.checkTimes(clock.getAsLong(), expected.clockSkewMs(), true);
        String principal = jwt.requiredString(expected.subClaim());
        if (expected.issuer() != null && !expected.issuer().equals(jwt.claims().get("iss"))) {
            throw new InvalidTokenException("the token's issuer " + jwt.claims().get("iss") + " is not "
                    + expected.issuer());
        }
        if (!expected.audiences().isEmpty()
                && jwt.strings("aud").stream().noneMatch(expected.audiences()::contains)) {
            throw new InvalidTokenException("the token's audience " + jwt.strings("aud") + " is none of "
                    + expected.audiences());
        }
        return new ValidToken(principal, jwt.strings(expected.scopeClaim()), expires);
    }

    private void refresh() {
        try {
            JsonWebKeys fresh = JsonWebKeys.parse(source.read());
            lastFetchMs.set(clock.getAsLong());
            if (fresh.keys().isEmpty()) {
                LOG.warn("The refreshed JSON Web Key Set has no signing key; keeping the {} keys read before",
                        keys.keys().size());
                return;
            }
            keys = fresh;
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot refresh the JSON Web Key Set (keeping the {} keys read before): {}", keys.keys().size(),
                    e.toString());
        }
    }

    /** The ids of the keys held now, for tests and logs. */
    List<String> keyIds() {
        return keys.keys().stream().map(JsonWebKeys.Key::id).toList();
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}
