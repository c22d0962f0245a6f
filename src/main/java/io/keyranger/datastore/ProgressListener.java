package io.keyranger.datastore;

/** Receives progress of long work; {@code total} is negative when unknown. */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = (done, total) -> { };

    void progress(long done, long total);
}
