package io.keyranger.backup;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.Cancellation;
import io.keyranger.executor.cells.CommitBytes;
import io.keyranger.keys.KeyOrder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The live entities of a comparison's selection that its export (or past moment: {@link DiffSide}) lacks. The
 * live kind is read over key ranges planned as a job's are, several at once and in key order, keys only (whole
 * entities when a query must see them: {@link OrderedRangeRead}, as the past side of {@code diff --as-of} is read; an
 * empty live kind is one range, with nothing added); each key is looked up among the export's key hashes. With a
 * list of keys, only those are looked up. Narrowed by a query, a live match that the export holds but whose exported
 * version the query does not match crossed the query's condition since: it is changed, not added (the source is
 * read once more for those keys: {@link DiffSide#heldOutside}). Its key goes to a list of its own,
 * {@code entered.keys}: a restore with the same query does not select it (its exported version does not match), so
 * it cannot stand in {@code changed.keys} with those that a restore does.
 */
final class AddedSince {
    /** The key list of the live matches whose exported version the query does not match. */
    static final String ENTERED = "entered.keys";
    /** Live keys read between two reports of progress (a query's batch is about this many). */
    private static final int REPORT_EVERY = 500;

    private final Datastore datastore;
    private final KeyOrder order;
    private final DiffSide source;
    private final Path keysFolder;
    private final int parallel;
    private final int examples;

    AddedSince(Datastore datastore, KeyOrder order, DiffSide source, Path keysFolder, int parallel,
               int examples) {
        this.datastore = datastore;
        this.order = order;
        this.source = source;
        this.keysFolder = keysFolder;
        this.parallel = parallel;
        this.examples = examples;
    }

    /**
     * What the pass found.
     *
     * @param added   live entities of the selection the export lacks (-1: the pass did not run)
     * @param entered live entities of the selection the export holds outside its selection (they changed)
     */
    record Found(long added, long entered) {
        static final Found NOT_RUN = new Found(-1, 0);
    }

    /**
     * What was added, and what entered the query's selection; the first few of each go to {@code changedEx} and
     * {@code found}, whole; every key to {@code added.keys}, or {@code entered.keys} for those that entered.
     */
    Found find(long[] exportKeys, List<ExportDiff.Example> changedEx, List<ExportDiff.Example> found,
               ExportDiff.Progress progress, Cancellation cancellation) throws IOException {
        List<Key> candidates = source.keys() != null ? asked(exportKeys) : scanned(exportKeys, progress,
                cancellation);
        Map<Key, Entity> outside = source.heldOutside(candidates);
        List<Key> added = candidates.stream().filter(k -> !outside.containsKey(k)).toList();
        List<Key> entered = candidates.stream().filter(outside::containsKey).toList();
        try (KeyListWriter out = KeyListWriter.in(keysFolder, ENTERED, false)) {
            for (Key key : entered) {
                out.write(key);
            }
        }
        List<Key> enteredShown = entered.subList(0, Math.min(examples, entered.size()));
        if (!enteredShown.isEmpty()) {
            List<Entity> read = datastore.fetch(enteredShown.toArray(new Key[0]));
            for (int i = 0; i < enteredShown.size(); i++) {
                Entity before = outside.get(enteredShown.get(i));
                ExportDiff.keep(changedEx, new ExportDiff.Example(enteredShown.get(i), before, read.get(i),
                        "matches the query now, not " + source.where() + ": "
                        + source.differences(before, read.get(i))), examples * 2);
            }
        }
        try (KeyListWriter out = KeyListWriter.in(keysFolder, "added.keys", false)) {
            for (Key key : added) {
                out.write(key);
            }
        }
        List<Key> shown = added.subList(0, Math.min(examples, added.size()));
        if (!shown.isEmpty()) {
            List<Entity> read = datastore.fetch(shown.toArray(new Key[0]));
            for (int i = 0; i < shown.size(); i++) {
                ExportDiff.keep(found, new ExportDiff.Example(shown.get(i), null, read.get(i),
                        "added " + source.since()), examples);
            }
        }
        return new Found(added.size(), entered.size());
    }

    private List<Key> asked(long[] exportKeys) {
        List<Key> notExported = source.keys().stream().filter(k -> !exported(exportKeys, k)).toList();
        return CommitBytes.lookup(notExported, datastore::fetch).stream().filter(e -> e != null)
                .map(Entity::getKey).toList();
    }

    /**
     * The live keys of the selection the export lacks, in key order: the kind read over planned ranges,
     * {@code parallel} at once ({@link OrderedRangeRead}), keys only (whole entities when the query must see them),
     * each tested in the thread that read it. Stopped, it returns what it found so far.
     */
    private List<Key> scanned(long[] exportKeys, ExportDiff.Progress progress, Cancellation cancellation) {
        AtomicLong read = new AtomicLong();
        Function<Object, Key> lacked = next -> {
            long n = read.incrementAndGet();
            if (n % REPORT_EVERY == 0) {
                progress.scanned(n);
            }
            if (next instanceof Entity e && !source.select().matches(e)) {
                return null;
            }
            Key key = next instanceof Entity e ? e.getKey() : (Key) next;
            return exported(exportKeys, key) ? null : key;
        };
        List<Key> added = new ArrayList<>();
        try (OrderedRangeRead<Key> live = OrderedRangeRead.each(datastore, order, source.namespace(),
                source.kind(), parallel, cancellation, source.select() != null, lacked)) {
            while (!cancellation.isCancelled() && live.hasNext()) {
                added.add(live.next());
            }
        } catch (CancellationException stopped) {
            if (!cancellation.isCancelled()) {
                throw stopped;
            }
        }
        progress.scanned(read.get());
        return added;
    }

    private static boolean exported(long[] exportKeys, Key key) {
        return Arrays.binarySearch(exportKeys, ExportDiff.hash(key)) >= 0;
    }
}
