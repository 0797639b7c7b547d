package dev.spool.broker.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The users of SASL/PLAIN in a JAAS configuration as Kafka's brokers read it:
 * {@code org.apache.kafka.common.security.plain.PlainLoginModule required username="admin"
 * password="admin-secret" user_admin="admin-secret" user_alice="alice-secret";}, each {@code user_<name>} option
 * a user and its password (username and password are what the broker itself would log in as). Stateless.
 */
final class PlainJaasUsers {

    static final String PLAIN_LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";

    private PlainJaasUsers() {
    }

    /** Users by name; a configuration not PlainLoginModule's, or naming no user, is refused naming the setting. */
    static Map<String, String> parse(String setting, String jaas) {
        Map<String, String> users = new LinkedHashMap<>();
        JaasOptions.parse(setting, jaas, PLAIN_LOGIN_MODULE, PLAIN_LOGIN_MODULE + " required user_<name>=\"<password>\" ...;")
                .forEach((option, value) -> {
                    if (option.startsWith("user_")) {
                        users.put(option.substring("user_".length()), value);
                    }
                });
        if (users.isEmpty()) {
            throw new ConfigException("invalid value for " + setting
                    + ": it names no user (user_<name>=\"<password>\")");
        }
        return Map.copyOf(users);
    }
}
