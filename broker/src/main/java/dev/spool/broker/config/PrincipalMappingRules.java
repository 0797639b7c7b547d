package dev.spool.broker.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Immutable: {@code ssl.principal.mapping.rules} (KIP-371), which turn a client certificate's distinguished name
 * (RFC 2253, as {@code CN=alice,OU=eng,O=example}) into the name of its principal. Tried in order, the first whose
 * pattern matches the whole name wins: {@code RULE:pattern/replacement/} gives the name with each match replaced
 * ({@code $1} a group), lower- or upper-cased with a trailing {@code L} or {@code U}; {@code DEFAULT} gives the name
 * unchanged. A name no rule matches has no principal: the connection is refused.
 */
public final class PrincipalMappingRules {

    /** One rule: DEFAULT, or RULE:pattern/replacement/ with its case flag; a backslash escapes a slash. */
    private static final Pattern RULE = Pattern.compile(
            "\\s*(?:(DEFAULT)|RULE:((?:\\\\.|[^\\\\/])*)/((?:\\\\.|[^\\\\/])*)/([LU]?))\\s*(?:,|$)");

    private static final Pattern GROUP_REFERENCE = Pattern.compile("\\$(\\d+)");

    private record Rule(Pattern pattern, String replacement, String caseFlag) {

        /** Null for DEFAULT. */
        Optional<String> apply(String name) {
            if (pattern == null) {
                return Optional.of(name);
            }
            Matcher matcher = pattern.matcher(name);
            if (!matcher.matches()) {
                return Optional.empty();
            }
            String mapped;
            try {
                mapped = matcher.replaceAll(replacement);
            } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
                return Optional.empty(); // a replacement naming a group the pattern lacks maps nothing
            }
            return Optional.of(switch (caseFlag) {
                case "L" -> mapped.toLowerCase(Locale.ROOT);
                case "U" -> mapped.toUpperCase(Locale.ROOT);
                default -> mapped;
            });
        }
    }

    private final List<Rule> rules;

    private PrincipalMappingRules(List<Rule> rules) {
        this.rules = rules;
    }

    /** Parses the setting's value; one that is not a list of rules is refused, naming the setting. */
    public static PrincipalMappingRules parse(String setting) {
        String text = setting == null || setting.isBlank() ? "DEFAULT" : setting.trim();
        List<Rule> rules = new ArrayList<>();
        Matcher matcher = RULE.matcher(text);
        int end = 0;
        while (end < text.length()) {
            if (!matcher.find(end) || matcher.start() != end) {
                throw new ConfigException(ConfigKey.invalid(TlsSettings.PRINCIPAL_MAPPING_RULES.name(), setting,
                        "not DEFAULT or RULE:pattern/replacement/[LU] at '" + text.substring(end) + "'"));
            }
            try {
                if (matcher.group(1) != null) {
                    rules.add(new Rule(null, null, ""));
                } else {
                    Pattern pattern = Pattern.compile(unescape(matcher.group(2)));
                    String replacement = unescape(matcher.group(3));
                    Matcher groups = GROUP_REFERENCE.matcher(replacement);
                    while (groups.find()) {
                        if (Integer.parseInt(groups.group(1)) > pattern.matcher("").groupCount()) {
                            throw new ConfigException(ConfigKey.invalid(TlsSettings.PRINCIPAL_MAPPING_RULES.name(),
                                    setting, "'" + replacement + "' names group $" + groups.group(1) + ", which '"
                                            + pattern + "' does not have"));
                        }
                    }
                    rules.add(new Rule(pattern, replacement, matcher.group(4)));
                }
            } catch (PatternSyntaxException e) {
                throw new ConfigException(ConfigKey.invalid(TlsSettings.PRINCIPAL_MAPPING_RULES.name(), setting,
                        e.getDescription() + " in '" + matcher.group(2) + "'"));
            }
            end = matcher.end();
        }
        return new PrincipalMappingRules(List.copyOf(rules));
    }

    private static String unescape(String text) {
        return text.replace("\\/", "/");
    }

    /** The principal name of {@code distinguishedName}, or empty when no rule matches it. */
    public Optional<String> map(String distinguishedName) {
        for (Rule rule : rules) {
            Optional<String> name = rule.apply(distinguishedName);
            if (name.isPresent()) {
                return name;
            }
        }
        return Optional.empty();
    }
}
