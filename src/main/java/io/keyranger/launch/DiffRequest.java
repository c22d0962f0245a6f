package io.keyranger.launch;

import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.SideWording;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.Session;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A comparison with live data, as the command line ({@code diff}) and the Backups tab both ask for it
 * ({@link Diffs#run}): what live data is compared with, the namespace and kind, what narrows them, where the key lists
 * go and whether it goes on from a comparison that stopped.
 *
 * @param before    what live data is compared with: a managed export, the database as of a past moment, or another
 *                  database
 * @param namespace the namespace compared
 * @param kind      the kind compared
 * @param gql       a GQL query each side's entities must match, or null
 * @param keys      a file of the only keys compared (one {@code KEY(...)} a line), or null for all
 * @param keysOut   the folder that gets {@code added.keys}, {@code removed.keys}, {@code changed.keys} and a stopped
 *                  comparison's state (made when missing), or null for none
 * @param resume    whether it goes on from the state a stopped comparison left in {@code keysOut}
 * @param pageSize  keys per lookup of live entities
 * @param parallel  reads in flight at once: lookups of live entities, and key ranges of the past read
 * @param examples  examples kept of each outcome
 */
public record DiffRequest(Before before, String namespace, String kind, String gql, Path keys, Path keysOut,
                          Resume resume, int pageSize, int parallel, int examples) {
    /** Keys per lookup unless asked otherwise. */
    public static final int PAGE_SIZE = 500;
    /**
     * Reads in flight unless asked otherwise (lookups, and key ranges of the past and of the live kind): reads take no
     * locks, and a production server answers 32 at once about as fast as one (a past read of 200,000 entities over
     * 32 ranges at once is 5.3-6.1x the sequential one on the production model, 3.8-4.1x at 8; BENCHMARKS.md).
     */
    public static final int PARALLEL = 32;

    public DiffRequest {
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(resume, "resume");
    }

    /** The whole kind of {@code before} in {@code namespace}, no key lists written, the default sizes. */
    public static DiffRequest of(Before before, String namespace, String kind) {
        return new DiffRequest(before, namespace, kind, null, null, null, Resume.AFRESH, PAGE_SIZE, PARALLEL,
                ExportDiff.EXAMPLES);
    }

    /** Only the entities {@code gql} matches and those {@code keys} lists (either may be null). */
    public DiffRequest narrowed(String gql, Path keys) {
        return new DiffRequest(before, namespace, kind, gql, keys, keysOut, resume, pageSize, parallel, examples);
    }

    /** Its key lists (and a stopped comparison's state) in {@code folder}, going on from there as {@code how} says. */
    public DiffRequest keysOut(Path folder, Resume how) {
        return new DiffRequest(before, namespace, kind, gql, keys, folder, how, pageSize, parallel, examples);
    }

    /** With {@code pageSize} keys per lookup and {@code parallel} lookups in flight. */
    public DiffRequest sized(int pageSize, int parallel) {
        return new DiffRequest(before, namespace, kind, gql, keys, keysOut, resume, pageSize, parallel, examples);
    }

    /** Keeping {@code most} examples of each outcome. */
    public DiffRequest examples(int most) {
        return new DiffRequest(before, namespace, kind, gql, keys, keysOut, resume, pageSize, parallel, most);
    }

    /** Whether it goes on from where a comparison stopped. */
    public enum Resume {
        /** Begins afresh (key lists already in the folder are written anew). */
        AFRESH,
        /** Goes on from the state of a stopped comparison in the key folder: refused when there is none. */
        GO_ON,
        /**
         * Goes on from a stopped comparison's state in the key folder when there is one, else begins afresh; once it
         * ends (not stopped) the state is forgotten, so the next one there begins afresh.
         */
        GO_ON_IF_STOPPED
    }

    /** What live data is compared with. */
    public sealed interface Before {
        /** Where its entities were, for messages ({@link SideWording#where}). */
        String where();

        /** Since when, for messages ({@link SideWording#since}). */
        String since();
    }

    /** A managed export's entities. */
    public record Export(ManagedExport export) implements Before {
        public Export {
            Objects.requireNonNull(export, "export");
        }

        @Override
        public String where() {
            return SideWording.EXPORT.where();
        }

        @Override
        public String since() {
            return SideWording.EXPORT.since();
        }
    }

    /**
     * Another database's entities (another project, database or namespace: {@code source}, opened by
     * {@link SourceDatabase#open}), read as of its moment ({@link Session#asOf}) where its server keeps versions, else
     * live.
     */
    public record Database(Session source) implements Before {
        public Database {
            Objects.requireNonNull(source, "source");
        }

        @Override
        public String where() {
            return SideWording.database(source).where();
        }

        @Override
        public String since() {
            return SideWording.database(source).since();
        }
    }

    /**
     * The database's entities as of {@code asOf}, a moment already checked against what the server keeps
     * ({@code ReadWindow.open}: a server that keeps no past is refused there).
     */
    public record Past(PointInTime asOf) implements Before {
        public Past {
            Objects.requireNonNull(asOf, "asOf");
        }

        @Override
        public String where() {
            return SideWording.asOf(asOf).where();
        }

        @Override
        public String since() {
            return SideWording.asOf(asOf).since();
        }
    }
}
