package dev.spool.broker.metadata;

/**
 * Kafka's rules for topic names: 1 to 249 characters of [a-zA-Z0-9._-], not "." or "..", and no two
 * topics that differ only by '.' versus '_' (their metric names would collide). Thread-safe.
 */
public final class TopicNames {

    public static final int MAX_LENGTH = 249;

    private TopicNames() {
    }

    /** Why the name is illegal, or null when it is legal. */
    public static String whyInvalid(String name) {
        if (name == null || name.isEmpty()) {
            return "Topic name is illegal, it can't be empty";
        }
        if (name.equals(".") || name.equals("..")) {
            return "Topic name cannot be \".\" or \"..\"";
        }
        if (name.length() > MAX_LENGTH) {
            return "Topic name is illegal, it can't be longer than " + MAX_LENGTH + " characters, topic name: " + name;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!legal) {
                return "Topic name \"" + name + "\" is illegal, it contains a character other than ASCII alphanumerics, "
                        + "'.', '_' and '-'";
            }
        }
        return null;
    }

    /** The name with '.' read as '_', equal for two names that collide. */
    public static String collisionKey(String name) {
        return name.replace('.', '_');
    }
}
