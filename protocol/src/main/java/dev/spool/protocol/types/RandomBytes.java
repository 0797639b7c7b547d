package dev.spool.protocol.types;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * Thread-safe: random bytes for identifiers (cluster, directory, topic ids). They come from the kernel's
 * {@code /dev/urandom}, the source {@link SecureRandom} draws from on Linux, read directly: a broker's first
 * {@code SecureRandom} costs 30-140 ms of security-provider start-up, a fifth of its start-up time. Where there is no
 * such device, {@link SecureRandom}.
 */
final class RandomBytes {

    private static final Path URANDOM = Path.of("/dev/urandom");

    private RandomBytes() {
    }

    static byte[] read(int count) {
        byte[] bytes = new byte[count];
        try (InputStream in = Files.newInputStream(URANDOM)) {
            if (in.readNBytes(bytes, 0, count) == count) {
                return bytes;
            }
        } catch (IOException absentOrUnreadable) {
            // falls through to SecureRandom, which has its own sources
        }
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }
}
