package dev.spool.log;

import java.nio.file.Path;

/**
 * Stateless: Kafka's file names inside a partition directory: the base offset as 20 zero-padded
 * digits plus a suffix, e.g. {@code 00000000000000001000.log}, and a {@code .deleted} suffix added to
 * files waiting for asynchronous removal.
 */
public final class LogFileNames {
    public static final String LOG_SUFFIX = ".log";
    public static final String INDEX_SUFFIX = ".index";
    public static final String TIME_INDEX_SUFFIX = ".timeindex";
    public static final String TXN_INDEX_SUFFIX = ".txnindex";
    public static final String DELETED_SUFFIX = ".deleted";
    public static final String CLEANED_SUFFIX = ".cleaned";
    public static final String SWAP_SUFFIX = ".swap";
    private static final int DIGITS = 20;

    private LogFileNames() {
    }

    public static String name(long baseOffset, String suffix) {
        String digits = Long.toString(baseOffset);
        return "0".repeat(DIGITS - digits.length()) + digits + suffix;
    }

    public static Path logFile(Path dir, long baseOffset) {
        return dir.resolve(name(baseOffset, LOG_SUFFIX));
    }

    public static Path offsetIndexFile(Path dir, long baseOffset) {
        return dir.resolve(name(baseOffset, INDEX_SUFFIX));
    }

    public static Path timeIndexFile(Path dir, long baseOffset) {
        return dir.resolve(name(baseOffset, TIME_INDEX_SUFFIX));
    }

    public static Path txnIndexFile(Path dir, long baseOffset) {
        return dir.resolve(name(baseOffset, TXN_INDEX_SUFFIX));
    }

    /** The base offset named by a file such as "00000000000000001000.log", or -1 if the name is not one. */
    public static long baseOffsetOf(String fileName, String suffix) {
        if (!fileName.endsWith(suffix) || fileName.length() != DIGITS + suffix.length()) {
            return -1;
        }
        String digits = fileName.substring(0, DIGITS);
        for (int i = 0; i < DIGITS; i++) {
            if (!Character.isDigit(digits.charAt(i))) {
                return -1;
            }
        }
        return Long.parseLong(digits);
    }
}
