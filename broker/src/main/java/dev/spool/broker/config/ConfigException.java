package dev.spool.broker.config;

/** A configuration value is missing, malformed or out of range; the message names the property. */
public final class ConfigException extends RuntimeException {

    public ConfigException(String message) {
        super(message);
    }
}
