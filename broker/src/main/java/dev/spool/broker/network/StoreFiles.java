package dev.spool.broker.network;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The key store and trust store files a listener's TLS was built from, as they were: each file's size and last
 * modification time (a missing file counts as such). Comparing two stamps tells whether a file was replaced or
 * rewritten since. Immutable.
 */
record StoreFiles(List<String> stamps) {

    /** The stamp of these files now; null locations (a store given inline, or none) are left out. */
    static StoreFiles of(String... locations) {
        List<String> stamps = new ArrayList<>();
        for (String location : locations) {
            if (location == null || location.isBlank()) {
                continue;
            }
            try {
                BasicFileAttributes attributes = Files.readAttributes(Path.of(location), BasicFileAttributes.class);
                stamps.add(location + ":" + attributes.size() + ":" + attributes.lastModifiedTime().toMillis());
            } catch (IOException e) {
                stamps.add(location + ":missing");
            }
        }
        return new StoreFiles(List.copyOf(stamps));
    }
}
