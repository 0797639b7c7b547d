package dev.spool.broker.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The options of a one-entry JAAS configuration as Kafka reads a {@code sasl.jaas.config} value:
 * {@code <LoginModule class> required key="value" key2=value2;}. Stateless.
 */
final class JaasOptions {

    /** A quoted value (a backslash escapes) or a bare one. */
    private static final String VALUE = "(?:\"(?:\\\\.|[^\"\\\\])*\"|[^\\s;]+)";
    private static final Pattern ENTRY = Pattern.compile("\\s*(\\S+)\\s+(required|requisite|sufficient|optional)"
            + "((?:\\s+[^\\s=;]+\\s*=\\s*" + VALUE + ")*)\\s*;\\s*");
    private static final Pattern OPTION = Pattern.compile(
            "([^\\s=;]+)\\s*=\\s*(?:\"((?:\\\\.|[^\"\\\\])*)\"|([^\\s;]+))");

    private JaasOptions() {
    }

    /**
     * The options of {@code jaas}, the value of {@code setting}, in order; a value that is not one entry of
     * {@code loginModule} is refused naming the setting and {@code form}, the form expected.
     */
    static Map<String, String> parse(String setting, String jaas, String loginModule, String form) {
        Matcher entry = ENTRY.matcher(jaas);
        if (!entry.matches()) {
            throw new ConfigException("invalid value for " + setting + ": not a JAAS login module entry (" + form + ")");
        }
        if (!entry.group(1).equals(loginModule)) {
            throw new ConfigException("invalid value for " + setting + ": login module " + entry.group(1)
                    + " is not " + loginModule);
        }
        Map<String, String> options = new LinkedHashMap<>();
        Matcher option = OPTION.matcher(entry.group(3));
        while (option.find()) {
            String value = option.group(2) != null ? option.group(2).replaceAll("\\\\(.)", "$1") : option.group(3);
            options.put(option.group(1), value);
        }
        return options;
    }
}
