package dev.spool.it;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Not thread-safe (JUnit calls it once per test class): one broker process, {@code bin/spool server} with the
 * defaults (or the overrides given), shared by a test class's tests; started before the first and stopped after the last. Use it as
 * {@code @RegisterExtension static final SharedSpoolProcess SPOOL = new SharedSpoolProcess();}.
 */
final class SharedSpoolProcess implements BeforeAllCallback, AfterAllCallback {

    private final String[] overrides;
    private SpoolProcess process;

    /** {@code overrides}: settings as {@code key=value}, each given to the broker with {@code --override}. */
    SharedSpoolProcess(String... overrides) {
        this.overrides = overrides;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        process = SpoolProcess.start(overrides);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (process != null) {
            process.close();
        }
    }

    /** The running broker. */
    SpoolProcess process() {
        return process;
    }
}
