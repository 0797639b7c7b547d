package dev.spool.broker.logging;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * Thread-safe after {@link #initialize()}, which SLF4J calls once: the SLF4J provider of {@link ConsoleLogger}s,
 * named by {@code -Dslf4j.provider=dev.spool.broker.logging.ConsoleLoggerProvider}. Levels come from the system
 * properties (see {@link LogLevels}); Spool logs no MDC, so MDC calls do nothing.
 */
public final class ConsoleLoggerProvider implements SLF4JServiceProvider {

    private ILoggerFactory loggerFactory;
    private final IMarkerFactory markerFactory = new BasicMarkerFactory();
    private final MDCAdapter mdcAdapter = new NOPMDCAdapter();

    @Override
    public void initialize() {
        loggerFactory = new ConsoleLoggerFactory(LogLevels.fromSystemProperties(), new LogOutput(System.out));
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return loggerFactory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markerFactory;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdcAdapter;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }
}
