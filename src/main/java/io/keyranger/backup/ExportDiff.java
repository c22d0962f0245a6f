package io.keyranger.backup;
import io.keyranger.datastore.DatabasePlacement;
import io.keyranger.datastore.Partition;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.Session;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.executor.source.ImportInput;
import io.keyranger.executor.source.ManagedImport;
import io.keyranger.keys.KeyOrder;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.query.ClientQuery;
import io.keyranger.query.Gql;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.common.hash.Hashing;
import io.keyranger.datastore.Cancellation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Future;

/**
 * An export's selection (or the kind as the database held it at a past moment, {@link #ofPast}, or as another
 * database holds it, {@link #ofDatabase}) against live data,
 * in pages of keys: each page of the export's entities is one lookup of their keys, and each entity is the same as
 * live, changed since, or removed since. A second pass reads the live kind's keys (or, with a query, its matching
 * entities) for those added since. It writes nothing to the database; the key lists it can write are what
 * {@code restore --keys} reads. The two sources ({@link DiffSide}) are compared by this one algorithm.
 *
 * <p>Narrowed by a query, it compares the query's matches on each side: an entity in the export and live that
 * matches on one side only crossed the query's condition, and counts as changed whichever way it crossed (counted
 * apart too: {@link Result#entered}, {@link Result#left}). Only an entity the export lacks is added, and only one
 * gone live is removed.
 */
public final class ExportDiff {
    /** Examples kept of each outcome. */
    public static final int EXAMPLES = 5;

    private final Datastore datastore;
    private final DiffSide source;
    private final KeyOrder order;
    private int pageSize = 500;
    private int examples = EXAMPLES;
    private int parallel = 8;
    private boolean resume;
    private Path keysFolder;

    /** Compares {@code source}'s selection with {@code datastore}. */
    ExportDiff(Datastore datastore, KeyOrder order, DiffSide source) {
        this.datastore = datastore;
        this.order = order;
        this.source = source;
    }

    /**
     * Compares the entities of {@code namespace} and {@code kind} in {@code export}, narrowed by a GQL query and a
     * file of keys (either may be null), with the database, as a restore of them would select them.
     */
    public static ExportDiff of(Session session, ManagedExport export,
                                String namespace, String kind, String gql, Path keys) {
        return new ExportDiff(session.datastore(), session.order(), new ExportSide(ManagedImport.of(
                session.datastore(), session.order(), export, namespace, kind, gql, keys == null ? null
                        : keys.toString())));
    }

    /**
     * Compares the entities of {@code namespace} and {@code kind} as the database held them at {@code asOf} (already
     * checked against what the server keeps: {@code ReadWindow.open}), narrowed by a GQL query
     * (applied on the client on each side, as to an export) and a file of keys (either may be null), with the live
     * database {@code live} reaches. Refused on a server that keeps no past.
     */
    public static ExportDiff ofPast(Session live, PointInTime asOf, String namespace, String kind, String gql,
                                    Path keys) {
        Session now = live.live();
        return ofDatabase(now, now.asOf(asOf), DatabasePlacement.none(Partition.of(now.spec())
                .inNamespace(namespace)), SideWording.asOf(asOf), namespace, kind, gql, keys);
    }

    /**
     * Compares the entities of {@code kind} in another database ({@code source}: another project, database or
     * namespace, read as of its moment, or live on a server that keeps no past), placed in the connected partition
     * ({@code namespace}), narrowed by a GQL query (applied on the client on each side) and a file of keys (the
     * connected database's; either may be null), with the live database {@code live} reaches.
     */
    public static ExportDiff ofDatabase(Session live, Session source, String namespace, String kind, String gql,
                                        Path keys) {
        Session now = live.live();
        return ofDatabase(now, source, DatabasePlacement.of(source.spec(), now.spec(), namespace),
                SideWording.database(source), namespace, kind, gql, keys);
    }

    private static ExportDiff ofDatabase(Session now, Session source, DatabasePlacement placement,
                                         SideWording wording, String namespace, String kind, String gql, Path keys) {
        String project = now.datastore().getOptions().getProjectId();
        Instant windowAt = Instant.now();
        return new ExportDiff(now.datastore(), now.order(), new DatabaseSide(source, placement, namespace, kind,
                ClientQuery.selecting(gql, project, namespace, kind, now.order()),
                keys == null ? null : KeysFile.selecting(KeysFile.read(keys, project, namespace), namespace, kind,
                        now.order()), source.past() ? ReadWindow.of(source.live(), windowAt) : null, windowAt,
                wording));
    }

    /**
     * Whether {@code live} is the same as {@code exported}: as the export has it, or as a restore of it (Google's
     * {@code :import}, keys placed in the connected project) writes it.
     */
    public boolean sameAsExport(Entity exported, Entity live) {
        return source.same(exported, live);
    }

    /** Keys per lookup (at most 1,000, Datastore's limit on one lookup). */
    public ExportDiff pageSize(int value) {
        this.pageSize = Math.max(1, Math.min(1000, value));
        return this;
    }

    /** How many examples of each outcome to keep (default {@value #EXAMPLES}). */
    public ExportDiff examples(int value) {
        this.examples = Math.max(0, value);
        return this;
    }

    /**
     * Writes {@code added.keys}, {@code removed.keys} and {@code changed.keys} in this folder, and, narrowed by a query,
     * {@code entered.keys}: the changed whose exported version the query does not match.
     */
    public ExportDiff writeKeys(Path folder) {
        this.keysFolder = folder;
        return this;
    }

    /**
     * One entity that differs.
     *
     * @param key    its key
     * @param before as the export holds it, or null (added since)
     * @param now    as it lives, or null (removed since)
     * @param what   what differs, in words
     */
    public record Example(Key key, Entity before, Entity now, String what) {
    }

    /**
     * What the comparison found.
     *
     * @param compared  the export's entities compared (those its selection takes)
     * @param same      equal to live
     * @param changed   changed since the export
     * @param removed   removed since
     * @param added     added since (live, not in the export); -1 when that pass did not run
     * @param examples  the first few of changed, removed and added, in that order of kinds
     * @param lookups   lookups of live entities (one a page)
     * @param cancelled whether it stopped early (the counts cover what was compared)
     * @param resumedFrom entities compared by the stopped run this one went on from (0 when it began afresh); the
     *                  counts include them, the examples do not
     * @param entered   of the changed, those the query matches live but did not match in the export (found by the
     *                  pass for added entities: 0 when it did not run)
     * @param left      of the changed, those the query matched in the export but does not match live
     */
    public record Result(long compared, long same, long changed, long removed, long added, List<Example> examples,
                         long lookups, boolean cancelled, long resumedFrom, long entered, long left) {
        public Result {
            examples = List.copyOf(examples);
        }
    }

    /** Progress: entities compared so far, and how far the pass for added entities is. */
    public interface Progress {
        void compared(long entities);

        /** Live keys read so far by the pass for entities added since (it follows the comparison). */
        default void scanned(long liveKeys) {
        }
    }

    /**
     * Reads in flight at once (default 8): lookups of live entities (pages are independent, so they overlap the
     * server's latency), and key ranges read by queries ({@link OrderedRangeRead}): of a source read so (the past),
     * and of the live kind, for the entities added since.
     */
    public ExportDiff parallel(int value) {
        this.parallel = Math.max(1, value);
        return this;
    }

    /**
     * Goes on from the state a stopped run left in the key folder ({@link #writeKeys}): the records it compared are
     * passed over (their keys still count for the added pass), its counts and key lists are kept.
     */
    public ExportDiff resume(boolean value) {
        this.resume = value;
        return this;
    }

    /** Whether a comparison that stopped left its state in {@code folder}, for {@link #resume} to go on with. */
    public static boolean stoppedIn(Path folder) {
        return Files.isRegularFile(folder.resolve(DiffState.FILE));
    }

    /** When the export at {@code metadata} was written: a comparison's state names it, so a new export begins anew. */
    public static String exportWritten(Path metadata) {
        return DiffState.written(metadata);
    }

    /** Forgets the state of a comparison in {@code folder} (its key lists stay): the next one there starts afresh. */
    public static void forgetState(Path folder) throws IOException {
        Files.deleteIfExists(folder.resolve(DiffState.FILE));
    }

    /** A page of the export's entities and its live lookup, in flight. */
    private record Pending(List<Entity> page, long endRecord, Future<List<Entity>> live) {
    }

    /** Compares; {@code added} says whether to look for entities added since. */
    public Result run(boolean added, Progress progress, Cancellation cancellation) throws IOException {
        DiffState state = resume ? DiffState.read(keysFolder, source) : DiffState.start(source);
        long resumedFrom = state.compared();
        List<Example> changedEx = new ArrayList<>();
        List<Example> removedEx = new ArrayList<>();
        KeyListWriter changedKeys = KeyListWriter.in(keysFolder, "changed.keys", resume);
        KeyListWriter removedKeys = KeyListWriter.in(keysFolder, "removed.keys", resume);
        long[] hashes = new long[1024];
        int hashCount = 0;
        try (LookupPool lookups = new LookupPool(parallel, "keyranger-diff-lookup"); changedKeys; removedKeys;
             ManagedImport.Entries entries = source.open(parallel, cancellation)) {
            Deque<Pending> inFlight = new ArrayDeque<>();
            List<Entity> page = new ArrayList<>(pageSize);
            long record = 0;
            boolean more = true;
            while (more && !cancellation.isCancelled()) {
                ImportInput.Entry entry;
                try {
                    entry = entries.next();
                } catch (CancellationException stopped) {
                    if (!cancellation.isCancelled()) {
                        throw stopped;
                    }
                    break; // a read the cancellation stopped before it began: stopped, as between two entries
                }
                more = entry != null;
                if (more) {
                    record++;
                }
                if (more && entry.entity() != null) {
                    if (hashCount == hashes.length) {
                        hashes = Arrays.copyOf(hashes, hashes.length * 2);
                    }
                    hashes[hashCount++] = hash(entry.entity().getKey());
                    if (record > state.records() && !state.compareDone()) {
                        page.add(entry.entity());
                    }
                }
                if (page.size() >= pageSize || !more && !page.isEmpty()) {
                    List<Entity> sent = List.copyOf(page);
                    inFlight.add(new Pending(sent, record, lookups.submit(() -> datastore.fetch(sent.stream()
                            .map(Entity::getKey).toArray(Key[]::new)))));
                    page.clear();
                }
                while (!inFlight.isEmpty() && (inFlight.size() >= parallel || !more || cancellation.isCancelled())) {
                    Pending done = inFlight.poll();
                    List<Entity> live = LookupPool.await(done.live());
                    long[] counts = new long[4]; // same, changed, removed, of the changed those that left the query
                    for (int i = 0; i < done.page().size(); i++) {
                        Entity before = done.page().get(i);
                        Entity now = live.get(i);
                        if (now == null) {
                            counts[2]++;
                            removedKeys.write(before.getKey());
                            keep(removedEx, new Example(before.getKey(), before, null, "removed "
                                    + source.since()));
                        } else if (sameAsExport(before, now)) {
                            counts[0]++;
                        } else {
                            counts[1]++;
                            boolean left = source.select() != null && !source.select().matches(now);
                            counts[3] += left ? 1 : 0;
                            changedKeys.write(before.getKey());
                            keep(changedEx, new Example(before.getKey(), before, now, (left ? "matched the query "
                                    + source.where() + ", not now: " : "") + source.differences(before, now)));
                        }
                    }
                    state = state.after(done.endRecord(), counts, changedKeys.flushed(), removedKeys.flushed());
                    state.write(keysFolder);
                    progress.compared(state.compared());
                }
            }
            if (more) {
                return result(state, AddedSince.Found.NOT_RUN, changedEx, removedEx, List.of(), true, resumedFrom);
            }
            state = state.compared(true);
            state.write(keysFolder);
        }
        List<Example> addedEx = new ArrayList<>();
        AddedSince.Found found = AddedSince.Found.NOT_RUN;
        if (added && !cancellation.isCancelled()) {
            long[] sorted = Arrays.copyOf(hashes, hashCount);
            Arrays.sort(sorted);
            found = new AddedSince(datastore, order, source, keysFolder, parallel, examples)
                    .find(sorted, changedEx, addedEx, progress, cancellation);
        }
        return result(state, found, changedEx, removedEx, addedEx, cancellation.isCancelled(), resumedFrom);
    }

    private static Result result(DiffState state, AddedSince.Found found, List<Example> changed,
                                 List<Example> removed, List<Example> addedEx, boolean cancelled, long resumedFrom) {
        List<Example> examples = new ArrayList<>(changed);
        examples.addAll(removed);
        examples.addAll(addedEx);
        return new Result(state.compared() + found.entered(), state.same(), state.changed() + found.entered(),
                state.removed(), found.added(), examples, state.lookups(), cancelled, resumedFrom, found.entered(),
                state.left());
    }

    private void keep(List<Example> kept, Example example) {
        keep(kept, example, examples);
    }

    static void keep(List<Example> kept, Example example, int most) {
        if (kept.size() < most) {
            kept.add(example);
        }
    }

    /** A key's 64-bit hash: the export's keys are held as these (8 bytes a key), so a large export fits in memory. */
    static long hash(Key key) {
        return Hashing.murmur3_128().hashString(Gql.keyLiteral(key), StandardCharsets.UTF_8)
                .asLong();
    }
}
