package io.keyranger.executor;

import com.google.cloud.datastore.Entity;
import java.io.Closeable;
import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * What an import reads, entry after entry in an order that never changes, so that the number of entries a commit has
 * covered is the import's checkpoint: the lines of a JSON lines export ({@link ImportFile}), or the entities of a
 * managed export ({@link ManagedImport}).
 */
interface ImportInput {
    /** Reads the whole input before anything is written: a bad entry is found before the first commit. */
    ImportFile.Check check(boolean skipBadLines, BooleanSupplier cancelled);

    /** The entries from the first; with {@code skipBadLines} a bad entry is {@link Entry#BAD}, else refused. */
    Entries open(boolean skipBadLines) throws IOException;

    /** An entry's entity as the import writes it (a managed export's keys placed as Google's import does). */
    default Entity placed(Entity entity) {
        return entity;
    }

    /**
     * What this input is, kept on a new job's checkpoint and compared on each run under its id ({@code check} is
     * what {@link #check} found); the selection it names is the input's own (a restore's namespace, query, keys).
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
     */
    record Entry(Entity entity, boolean bad, boolean selected) {
        static final Entry BLANK = new Entry(null, false, true);
        static final Entry BAD = new Entry(null, true, true);
        static final Entry NOT_SELECTED = new Entry(null, false, false);
    }

    /** The entries, read one at a time. */
    interface Entries extends Closeable {
        /** The next entry, or null after the last; {@code number} is its place (1 for the first). */
        Entry next(long number) throws IOException;

        /** Passes over the next entry cheaply (a resumed import skips what it committed); false at the end. */
        boolean skip() throws IOException;
    }
}
