package io.keyranger.executor.source;

import com.google.cloud.datastore.Key;
import io.keyranger.datastore.BookkeepingKinds;

/**
 * The position space of a job that reads files: the entry that begins at byte {@code offset} of its input's file
 * {@code file} is the key of id {@code file * 2^40 + offset + 1} in a kind of its own, so positions sort as the files
 * are read, and the ranges, cells, ledgers and splits of key-range jobs work on them unchanged. No entity is ever
 * stored at such a key.
 */
public final class Positions {
    public static final String KIND = BookkeepingKinds.PREFIX + "Position";
    /** A file's bytes, at most 1 TiB each. */
    private static final int SHIFT = 40;

    private Positions() {
    }

    public static Key key(String project, int file, long offset) {
        return Key.newBuilder(project, KIND, id(file, offset)).build();
    }

    static long id(int file, long offset) {
        return ((long) file << SHIFT) + offset + 1;
    }

    static int file(long id) {
        return (int) ((id - 1) >>> SHIFT);
    }

    static long offset(long id) {
        return (id - 1) & ((1L << SHIFT) - 1);
    }
}
