package io.keyranger.executor.source;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobResult;
import io.keyranger.job.PastRestore;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.SourceRecord;
import io.keyranger.query.ClientQuery;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The mapper of a restore from the database's past ({@link PastSource}) or from another database
 * ({@link DatabaseSource}, whose entities come placed in the job's partition): its pages are the kind's own keys, so the
 * engine reads each one's live entity in the commit's transaction (and keeps its undo record as for any job over a
 * kind); the entity's states at the time restored and at the later moment come with the page's records.
 * {@link PastRestore} decides; a GQL query selects by the entity's state at the time restored, or, for one absent
 * then, at the later moment (else live). A copy's entities are sampled and transformed on the way
 * ({@link CopyShaping}).
 */
final class PastMapper implements PageMapper {
    /** What an ancestor's counters start with ({@code --with-ancestors}): "ancestors: restored (missing)". */
    static final String ANCESTORS = "ancestors: ";

    private final PastRestore restore;
    private final ClientQuery select;

    /** Whether its keys come from queries (no keys file): their answers are reads of the past too. */
    private final boolean queried;
    /** The counter of the reads of its source: {@link JobResult#PAST_READS} or {@link JobResult#SOURCE_READS}. */
    private final String reads;
    /** What a copy from another database does on the way: its sample and transform. */
    private final CopyShaping shaping;
    /** Whether each key is looked up in the source (the past), or its queries read the entities (another database). */
    private final boolean lookups;
    /**
     * Whether each entity it takes brings its ancestors ({@code --with-ancestors}), whose records its pages hold
     * besides their keys' ({@link DatabaseSource}).
     */
    private final boolean ancestors;

    PastMapper(PastRestore restore, ClientQuery select, boolean queried) {
        this(restore, select, queried, JobResult.PAST_READS, CopyShaping.NONE, true, false);
    }

    /**
     * As above, its source's reads counted as {@code reads}, its entities {@code shaping} sampled and transformed,
     * {@code lookups} false when its queries read the entities themselves (no lookup of each key), and with
     * {@code ancestors} each entity taken bringing its ancestors.
     */
    PastMapper(PastRestore restore, ClientQuery select, boolean queried, String reads, CopyShaping shaping,
               boolean lookups, boolean ancestors) {
        this.restore = restore;
        this.select = select;
        this.queried = queried;
        this.reads = reads;
        this.shaping = shaping;
        this.lookups = lookups;
        this.ancestors = ancestors;
    }

    /** Whether the source's entity at {@code key} ({@code at}) is one it takes: sampled and selected. */
    boolean takes(Key key, Entity at) {
        return shaping.sampled(key) && (select == null || select.matches(at));
    }

    @Override
    public String name() {
        return "import";
    }

    @Override
    public boolean needsEntities() {
        return true;
    }

    @Override
    public boolean writes() {
        return true;
    }

    /**
     * With ancestors, each commit may write an ancestor another commit wrote (children of one parent in two pages),
     * or a key of its page an earlier commit wrote as an ancestor: one undo record a key, each read in the commit's
     * transaction, in a group of its own where the ancestor is of another kind.
     */
    @Override
    public int entityGroupsPerKey() {
        return ancestors ? 2 : 1;
    }

    @Override
    public boolean writesEachKeyOnce() {
        return !ancestors;
    }

    /** A key with ancestors may write each of them too: a commit is sized for all of them. */
    @Override
    public int entitiesPer(Key key) {
        return ancestors ? 1 + key.getAncestors().size() : 1;
    }

    /** The ancestors outside the page that the source holds, of the keys it may take: their live entities decide. */
    @Override
    public List<Key> related(Page page) {
        if (!ancestors) {
            return List.of();
        }
        Set<Key> in = new HashSet<>(page.keys());
        Set<Key> wanted = new LinkedHashSet<>();
        for (Key key : page.keys()) {
            SourceRecord record = page.records().get(key);
            if (record != null && record.entity() != null && takes(key, record.entity())) {
                for (Key up : DatabaseSource.ancestors(key)) {
                    SourceRecord above = page.records().get(up);
                    if (!in.contains(up) && above != null && above.entity() != null) {
                        wanted.add(up);
                    }
                }
            }
        }
        return new ArrayList<>(wanted);
    }

    @Override
    public MapResult map(Page page) {
        Map<Key, Entity> live = new HashMap<>();
        page.entities().forEach(e -> live.put(e.getKey(), e));
        Map<Key, Entity> then = new HashMap<>();
        Map<Key, Entity> later = new HashMap<>();
        List<Key> chosen = new ArrayList<>(page.keys().size());
        long passed = 0;
        for (Key key : page.keys()) {
            SourceRecord record = page.records().get(key);
            Entity at = record == null ? null : record.entity();
            Entity after = record == null ? null : record.later();
            Entity shown = at != null ? at : restore.until() ? after : live.get(key);
            if (shown == null ? !shaping.sampled(key) || select != null : !takes(key, shown)) {
                passed++;
                continue;
            }
            chosen.add(key);
            if (at != null) {
                then.put(key, at);
            }
            if (after != null) {
                later.put(key, after);
            }
        }
        Map<String, Long> counters = new HashMap<>();
        List<MapResult.Problem> problems = new ArrayList<>();
        Map<Key, Entity> shaped = shaping.apply(then, counters, problems);
        if (shaped.size() < then.size()) {
            chosen.removeIf(key -> then.containsKey(key) && !shaped.containsKey(key)); // the transform failed on it
        }
        MapResult decided = restore.decide(chosen, shaped, later, live);
        decided.counters().forEach((name, n) -> counters.merge(name, n, Long::sum));
        problems.addAll(decided.problems());
        counters.merge(reads, PastRun.pastReads(page.keys(), page.records(), live::containsKey, restore, queried,
                lookups), Long::sum);
        if (passed > 0) {
            counters.merge(PastRestore.NOT_SELECTED, passed, Long::sum);
        }
        List<Entity> puts = decided.puts();
        long skipped = decided.skipped() + then.size() - shaped.size();
        if (ancestors) {
            Set<Key> taken = new HashSet<>(then.keySet()); // a key the transform failed on is not brought above
            taken.addAll(chosen);
            MapResult brought = ancestors(page, chosen, taken, shaped, live, counters, problems);
            puts = new ArrayList<>(puts);
            puts.addAll(brought.puts());
            skipped += brought.skipped();
        }
        return new MapResult(puts, decided.deletes(), skipped, counters, List.of(), problems);
    }

    /**
     * The writes that bring the ancestors of the entities {@code chosen} and taken ({@code shaped}) that the source
     * holds, not taken themselves: transformed as they are, and decided as they are against their live entities
     * (a page's own keys in {@code live}, the others read as it relates to them); counted apart
     * ({@link #ANCESTORS}). An ancestor already written by another commit is as in the source, so it is not written
     * again.
     */
    private MapResult ancestors(Page page, List<Key> chosen, Set<Key> taken, Map<Key, Entity> shaped,
                                Map<Key, Entity> live, Map<String, Long> counters, List<MapResult.Problem> problems) {
        Map<Key, Entity> above = new LinkedHashMap<>();
        Set<Key> looked = new HashSet<>(); // the ancestors the source was asked for: its reads
        Set<Key> inPage = new HashSet<>(page.keys());
        for (Key key : chosen) {
            if (shaped.get(key) == null) {
                continue; // the source holds none: nothing of it to make whole
            }
            for (Key up : DatabaseSource.ancestors(key)) {
                SourceRecord record = page.records().get(up);
                if (taken.contains(up) || record == null) {
                    continue;
                }
                if (!inPage.contains(up)) {
                    looked.add(up);
                }
                if (record.entity() != null) {
                    above.putIfAbsent(up, record.entity());
                }
            }
        }
        if (!looked.isEmpty()) {
            counters.merge(reads, (long) looked.size(), Long::sum);
        }
        if (above.isEmpty()) {
            return new MapResult(List.of(), List.of(), 0, Map.of());
        }
        Map<Key, Entity> shapedAbove = shaping.apply(above, counters, problems);
        Map<Key, Entity> now = new HashMap<>();
        for (Key up : shapedAbove.keySet()) {
            Entity there = live.containsKey(up) ? live.get(up) : page.related().get(up);
            if (there != null) {
                now.put(up, there);
            }
        }
        MapResult decided = restore.decide(new ArrayList<>(shapedAbove.keySet()), shapedAbove, Map.of(), now);
        decided.counters().forEach((name, n) -> counters.merge(name.startsWith(JobReport.SKIPPED_PREFIX) ? name
                : ANCESTORS + name, n, Long::sum));
        problems.addAll(decided.problems());
        return new MapResult(decided.puts(), List.of(), decided.skipped() + above.size() - shapedAbove.size(),
                Map.of());
    }
}
