package io.keyranger.executor.source;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.job.JobResult;
import io.keyranger.job.PastRestore;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.SourceRecord;
import io.keyranger.query.ClientQuery;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    PastMapper(PastRestore restore, ClientQuery select, boolean queried) {
        this(restore, select, queried, JobResult.PAST_READS, CopyShaping.NONE, true);
    }

    /**
     * As above, its source's reads counted as {@code reads}, its entities {@code shaping} sampled and transformed, and
     * {@code lookups} false when its queries read the entities themselves (no lookup of each key).
     */
    PastMapper(PastRestore restore, ClientQuery select, boolean queried, String reads, CopyShaping shaping,
               boolean lookups) {
        this.restore = restore;
        this.select = select;
        this.queried = queried;
        this.reads = reads;
        this.shaping = shaping;
        this.lookups = lookups;
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
            if (!shaping.sampled(key) || select != null && (shown == null || !select.matches(shown))) {
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
        return new MapResult(decided.puts(), decided.deletes(), decided.skipped() + then.size() - shaped.size(),
                counters, List.of(), problems);
    }
}
