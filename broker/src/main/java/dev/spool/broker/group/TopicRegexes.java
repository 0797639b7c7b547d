package dev.spool.broker.group;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.spool.broker.metadata.TopicImage;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The topics a subscribed regular expression (KIP-848: RE2 syntax, matching a whole topic name) stands for in the
 * metadata as it is now; internal topics are never matched. Results are kept until the set of topics changes, so a
 * group's heartbeats cost one lookup each, not a scan of every topic. Not thread-safe: owned by the coordinator thread.
 */
final class TopicRegexes {

    /** Results kept at most, so that clients sending ever new expressions cannot grow the map without bound. */
    private static final int MAX_KEPT = 1_000;

    private final Supplier<Collection<TopicImage>> topics;
    private final Map<String, Set<String>> resolved = new HashMap<>();
    private Collection<TopicImage> resolvedAgainst;

    TopicRegexes(Supplier<Collection<TopicImage>> topics) {
        this.topics = topics;
    }

    /** Why the expression is not a valid RE2 expression, or null if it is. */
    static String problem(String regex) {
        try {
            Pattern.compile(regex);
            return null;
        } catch (PatternSyntaxException e) {
            return e.getMessage();
        }
    }

    /** A fingerprint of a set of topic names: equal sets, equal fingerprints (64 bits over the sorted names). */
    static long fingerprint(Set<String> names) {
        long fingerprint = names.size();
        for (String name : new TreeSet<>(names)) {
            fingerprint = fingerprint * 1_000_003L + name.hashCode();
        }
        return fingerprint;
    }

    /** The names of the topics the (valid) expression matches. */
    Set<String> resolve(String regex) {
        Collection<TopicImage> now = topics.get();
        // The metadata image's topic collection is replaced when a topic is created or deleted.
        if (now != resolvedAgainst || resolved.size() >= MAX_KEPT) {
            resolved.clear();
            resolvedAgainst = now;
        }
        return resolved.computeIfAbsent(regex, expression -> {
            Pattern pattern = Pattern.compile(expression);
            Set<String> names = new TreeSet<>();
            for (TopicImage topic : now) {
                if (!topic.isInternal() && pattern.matches(topic.name())) {
                    names.add(topic.name());
                }
            }
            return Set.copyOf(names);
        });
    }
}
