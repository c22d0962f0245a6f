package io.keyranger.executor.source;

import com.google.cloud.datastore.Entity;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What an import reads: the lines of a JSON lines export ({@link ImportFile}), or the entities of a managed export
 * ({@link ManagedImport}). Its entries lie in files, each at a byte offset that never changes, so a job's position
 * space ({@link Positions}) is the files' bytes: any worker can start reading at any offset, and the cells' ledgers
 * record which spans of them committed, as they do for keys.
 */
public interface ImportInput {
    /** Reads the whole input before anything is written: a bad entry is found before the first commit. */
    ImportFile.Check check(boolean skipBadLines, BooleanSupplier cancelled);

    /** The locations of the files the entries lie in, in order. */
    List<String> files();

    /** The size in bytes of file {@code file} (an index into {@link #files}). */
    long size(int file) throws IOException;

    /**
     * The entries of file {@code file} (an index into {@link #files}) that begin at byte {@code from} or after, in
     * order; blank lines are no entries. With {@code skipBadLines} a bad entry is {@link Entry#bad}, else refused.
     */
    Positioned read(int file, long from, boolean skipBadLines) throws IOException;

    /** An entry's entity as the import writes it (a managed export's keys placed as Google's import does). */
    default Entity placed(Entity entity) {
        return entity;
    }

    /**
     * What this input is, kept on a new job's spec and compared on each run under its id ({@code check} is what
     * {@link #check} found); the selection it names is the input's own (a restore's namespace, query, keys).
     */
    ImportIdentity identity(ImportFile.Check check);

    /** Where the input is, for messages. */
    String describe();

    /**
     * One entry.
     *
     * @param entity   the entity, or null for an entry without one (a blank line, a bad one, one not selected)
     * @param bad      not an exported entity (and bad entries are skipped)
     * @param selected whether the import's selection (namespace, query, keys) takes it; those it does not are passed
     *                 over and counted apart from skips
     * @param problem  why a bad entry is not an exported entity (where it is, its position says), or null
     */
    record Entry(Entity entity, boolean bad, boolean selected, String problem) {
        static final Entry NOT_SELECTED = new Entry(null, false, false, null);

        Entry(Entity entity, boolean bad, boolean selected) {
            this(entity, bad, selected, null);
        }

        static Entry bad(String problem) {
            return new Entry(null, true, true, problem);
        }
    }

    /** The entries of one file from a byte offset on, each with the offset it begins at. */
    interface Positioned extends Closeable {
        /** The next entry, or null at the end of the file. */
        Entry next() throws IOException;

        /** The byte offset the entry {@link #next} returned last begins at. */
        long offset();
    }
}
