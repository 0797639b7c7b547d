package dev.spool.junit;

import dev.spool.broker.EmbeddedSpool;
import dev.spool.broker.Spool;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Thread-safe for reading the broker; the JUnit lifecycle calls start and stop. Runs an embedded Spool
 * broker for a test class (registered on a {@code static} field, or with
 * {@code @ExtendWith(SpoolExtension.class)} on the class) or for each test method (an instance field):
 *
 * <pre>{@code
 * @RegisterExtension
 * static final SpoolExtension spool = SpoolExtension.create();
 *
 * @Test
 * void roundTrip() {
 *     Map<String, Object> config = Map.of("bootstrap.servers", spool.bootstrapServers());
 *     ...
 * }
 * }</pre>
 *
 * Test methods and lifecycle methods may also take the broker as an {@link EmbeddedSpool} parameter.
 * The broker listens on a free port of 127.0.0.1, keeps its data in a temporary directory, and is
 * stopped and its data deleted after the class (or method).
 */
public final class SpoolExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback, ParameterResolver {

    private final Map<String, String> settings = new LinkedHashMap<>();
    private volatile EmbeddedSpool broker;
    private volatile boolean perClass;

    /** Used by {@code @ExtendWith(SpoolExtension.class)}; prefer {@link #create()} on a field. */
    public SpoolExtension() {
    }

    /** An extension whose broker has the embedded defaults. */
    public static SpoolExtension create() {
        return new SpoolExtension();
    }

    /** This extension with one more broker setting (Kafka's names, e.g. {@code num.partitions}). */
    public SpoolExtension withSetting(String name, String value) {
        settings.put(name, value);
        return this;
    }

    /** {@code host:port} of the running broker, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return running().bootstrapServers();
    }

    /** The running broker. */
    public EmbeddedSpool broker() {
        return running();
    }

    private EmbeddedSpool running() {
        EmbeddedSpool current = broker;
        if (current == null) {
            throw new IllegalStateException("The Spool broker is not running: register SpoolExtension with "
                    + "@RegisterExtension and use it from a test or lifecycle method");
        }
        return current;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        perClass = true;
        broker = Spool.embedded(settings);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stop();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (!perClass) {
            broker = Spool.embedded(settings);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            stop();
        }
    }

    private void stop() {
        EmbeddedSpool current = broker;
        broker = null;
        if (current != null) {
            current.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == EmbeddedSpool.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return running();
    }
}
