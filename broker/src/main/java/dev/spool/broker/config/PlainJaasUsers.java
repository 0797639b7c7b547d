package dev.spool.broker.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The users of SASL/PLAIN in a JAAS configuration as Kafka's brokers read it:
 * {@code org.apache.kafka.common.security.plain.PlainLoginModule required username="admin"
 * password="admin-secret" user_admin="admin-secret" user_alice="alice-secret";}, each {@code user_<name>} option
 * a user and its password (username and password are what the broker itself would log in as). Stateless.
 */
final class PlainJaasUsers {

    static final String PLAIN_LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
    /** A quoted value (a backslash escapes) or a bare one. */
    private static final String VALUE = "(?:\"(?:\\\\.|[^\"\\\\])*\"|[^\\s;]+)";
    private static final Pattern ENTRY = Pattern.compile("\\s*(\\S+)\\s+(required|requisite|sufficient|optional)"
            + "((?:\\s+[^\\s=;]+\\s*=\\s*" + VALUE + ")*)\\s*;\\s*");
    private static final Pattern OPTION = Pattern.compile(
            "([^\\s=;]+)\\s*=\\s*(?:\"((?:\\\\.|[^\"\\\\])*)\"|([^\\s;]+))");

    private PlainJaasUsers() {
    }

    /** Users by name; a configuration not PlainLoginModule's, or naming no user, is refused naming the setting. */
    static Map<String, String> parse(String setting, String jaas) {
        Matcher entry = ENTRY.matcher(jaas);
        if (!entry.matches()) {
            throw new ConfigException("invalid value for " + setting + ": not a JAAS login module entry ("
                    + PLAIN_LOGIN_MODULE + " required user_<name>=\"<password>\" ...;)");
        }
        if (!entry.group(1).equals(PLAIN_LOGIN_MODULE)) {
            throw new ConfigException("invalid value for " + setting + ": login module " + entry.group(1)
                    + " is not " + PLAIN_LOGIN_MODULE);
        }
        Map<String, String> users = new LinkedHashMap<>();
        Matcher option = OPTION.matcher(entry.group(3));
        while (option.find()) {
            String value = option.group(2) != null ? option.group(2).replaceAll("\\\\(.)", "$1") : option.group(3);
            if (option.group(1).startsWith("user_")) {
                users.put(option.group(1).substring("user_".length()), value);
            }
        }
        if (users.isEmpty()) {
            throw new ConfigException("invalid value for " + setting
                    + ": it names no user (user_<name>=\"<password>\")");
        }
        return Map.copyOf(users);
    }
}
