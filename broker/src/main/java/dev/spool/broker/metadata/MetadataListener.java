package dev.spool.broker.metadata;

/**
 * Told of each new metadata image, on the metadata thread, before the change that made it is
 * acknowledged: a listener that creates partition logs has them ready when CreateTopics answers.
 * Implementations must not block for long.
 */
@FunctionalInterface
public interface MetadataListener {

    void onImage(MetadataImage previous, MetadataImage current);
}
