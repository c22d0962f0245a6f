package io.keyranger.backup;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.common.collect.Maps;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.PastReads;
import io.keyranger.datastore.Session;
import io.keyranger.executor.cells.CommitBytes;
import io.keyranger.executor.cells.PageSource;
import io.keyranger.executor.source.InputRun;
import io.keyranger.executor.source.PastRun;
import io.keyranger.job.JobInput;
import io.keyranger.files.LocalFileStore;
import io.keyranger.job.JobSpec;
import io.keyranger.job.PastRestore;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.SourceRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * What a restore from the database's past (or from another database) would do, predicted by the restore's own pages and decision over its whole
 * selection, each entity decided against its live state as read now (no transaction, nothing written): the same
 * counters and named entities the restore reports, and what it would write (its operations are counted by
 * {@code report.Operations}).
 *
 * @param counters   the restore's counters, by name
 * @param problems   the entities it would leave alone with a reason (later writes, changed ones), in key order
 * @param compared   the keys it looked at
 * @param reads      the entities and keys the restore would read: per key a lookup at the time restored (and at the
 *                   later moment, with one) and a read of the live one in its commit's transaction; without a keys
 *                   file, also the keys its queries answer at the time restored and at the later moment (or, to
 *                   find what was added since, live)
 * @param writes     the entities it would write back
 * @param deletes    the entities it would delete
 * @param undo       whether it keeps an undo record of each entity it writes or deletes
 */
public record PastRestoreDryRun(Map<String, Long> counters, List<MapResult.Problem> problems, long compared,
                                long reads, long writes, long deletes, boolean undo) {
    private static final int PAGE = 500;

    /**
     * The dry run of {@code spec} (a restore from the past, {@link RestoreSpec#fromPast}, or from another database,
     * {@link RestoreSpec#fromDatabase}) on {@code live}.
     */
    public static PastRestoreDryRun of(Session live, JobSpec spec, LongConsumer progress, Cancellation cancellation) {
        JobSpec given = spec.bind(live.datastore().getOptions().getProjectId(), live.order());
        InputRun input = InputRun.of(given);
        // what a run refuses, the dry run refuses too, before it reads
        JobSpec bound = input.checked(live.datastore(), LocalFileStore.INSTANCE, live.order(), given, null, w -> { });
        KeyOrder order = input.order(live.order()); // the source's, for a copy from another database
        InputRun.Pages pages = input.pages(live.datastore(), LocalFileStore.INSTANCE, order, bound);
        Map<String, Long> counters = new TreeMap<>();
        List<MapResult.Problem> problems = new ArrayList<>();
        PastRestore restore;
        boolean queried;
        boolean lookups = true; // each key looked up in the past; another database's queries read the entities
        if (input.input() instanceof JobInput.Database from) {
            restore = from.restore();
            queried = from.keys() == null;
            lookups = !queried;
        } else {
            JobInput.Past past = (JobInput.Past) input.input();
            restore = past.restore();
            queried = past.keys() == null;
        }
        long compared = 0;
        long reads = 0;
        long writes = 0;
        long deletes = 0;
        KeyRange rest = KeyRange.all(order);
        // with ancestors (which pages apart share), what it would have written so far (null: deleted)
        boolean ancestors = input.input() instanceof JobInput.Database from && from.withAncestors();
        Map<Key, Entity> written = new HashMap<>();
        while (!cancellation.isCancelled()) {
            PageSource.Page page = pages.source().fetch(rest, 0, PAGE);
            if (page.keys().isEmpty()) {
                break;
            }
            // In the page's key order, null where the key has no live entity (get answers only those found, unordered)
            // a mapper over positions (a kind renamed) decides the keys it relates to, read as its commit reads them
            // (and the keys a mapper relates to besides its page's: a copy's ancestors)
            boolean positions = pages.mapper().readsSource();
            List<Key> asked = pages.mapper().related(new Page(page.keys(), List.of(), Map.of(), page.records()));
            List<Key> read = new ArrayList<>(positions ? List.of() : page.keys());
            read.addAll(asked);
            Map<Key, Entity> related = new HashMap<>();
            Set<Key> living = new HashSet<>();
            Map<Key, Entity> found = new HashMap<>(); // looked up as a commit may ask (a lookup takes 1,000 keys)
            for (Entity e : CommitBytes.lookup(read, PastReads.live(live.datastore())::fetch)) {
                if (e != null) {
                    found.put(e.getKey(), e);
                }
            }
            for (Key key : read) {
                // as the run finds it: an ancestor an earlier page would have written is as it wrote it
                Entity now = written.containsKey(key) ? written.get(key) : found.get(key);
                if (now != null) {
                    related.put(key, now);
                    living.add(key);
                }
            }
            List<Entity> entities = positions ? List.of() : page.keys().stream().map(related::get)
                    .filter(Objects::nonNull).toList();
            MapResult result = pages.mapper().map(new Page(page.keys(), entities, positions ? related
                    : Maps.filterKeys(related, new HashSet<>(asked)::contains), page.records()));
            if (ancestors) {
                result.puts().forEach(e -> written.put(e.getKey(), e));
                result.deletes().forEach(k -> written.put(k, null));
            }
            result.counters().forEach((name, n) -> counters.merge(name, n, Long::sum));
            problems.addAll(result.problems());
            compared += page.keys().size();
            reads += page.keys().size() + (positions ? 0 : asked.size()) // the live read of each (and of what it
                    // relates to), then the reads of the past, as the job counts them, and a copy's of ancestors
                    + Math.max(0, page.records().size() - page.keys().size())
                    + PastRun.pastReads(page.keys(), page.records(), living::contains, restore, queried,
                    lookups);
            writes += result.puts().size();
            deletes += result.deletes().size();
            progress.accept(compared);
            rest = rest.advancePast(page.keys().get(page.keys().size() - 1));
        }
        return new PastRestoreDryRun(new HashMap<>(counters), problems, compared, reads, writes, deletes,
                bound.mapper().undo());
    }

    /** A counter, 0 when the restore would not count it. */
    public long count(String name) {
        return counters.getOrDefault(name, 0L);
    }
}
