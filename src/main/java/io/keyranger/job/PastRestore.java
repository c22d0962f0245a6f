package io.keyranger.job;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.mapper.MapResult;
import io.keyranger.formats.undo.Reverting;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What a restore from the database's past ({@code restore --as-of T}) does with each selected entity, decided against
 * the live one as the commit's transaction reads it.
 * <ul>
 *   <li>Without a later moment: as a restore from an export ({@link RestoreMode}, the entity at T as the backup); with
 *       {@code removeAdded} (overwrite only) an entity absent at T is deleted.</li>
 *   <li>With a later moment T2 ({@code --until}, undoing a window of damage): an entity whose live state is not its
 *       state at T2 was written again after the window, a good write: left alone and named. One still as at T2 goes
 *       back to its state at T: brought back when deleted in the window, its old values when changed, deleted (with
 *       {@code removeAdded}) when created in the window. One already as at T is left as it is, whatever it was at T2:
 *       so once a restore is done, the same decision (its dry run, or the restore run again) names only the later
 *       writes, not what the restore put back.</li>
 * </ul>
 *
 * @param mode        what to do with an entity that exists live, without {@code until}
 * @param until       whether the restore undoes a window that ends at a later moment
 * @param removeAdded whether entities absent at T are deleted
 * @param from        what the entities at T are: the database's past, or another database's entities (read at one
 *                    moment T of their own, without {@code until}), which word the counters
 */
public record PastRestore(RestoreMode mode, boolean until, boolean removeAdded, RestoreMode.Backup from) {
    /** The reason (and counter) of an entity written again after the window: a good later write, left alone. */
    public static final String WRITTEN_AFTER = "written again after --until";
    /** The counter of entities deleted in the window and brought back. */
    public static final String BROUGHT_BACK = "restored (deleted in the window)";
    /** The counter of entities changed in the window and given their old values. */
    public static final String REVERTED = "reverted (changed in the window)";
    /** The counter of entities created in the window and deleted ({@code --remove-added}). */
    public static final String ADDED_REMOVED = "added in the window, removed";
    /** The counter of entities created in the window and kept (no {@code --remove-added}). */
    public static final String ADDED_KEPT = "added in the window, kept";
    /** The counter of entities absent at the time restored and live, deleted (overwrite with --remove-added). */
    public static final String ADDED_SINCE_REMOVED = "added since the time restored, removed";
    /** The counter of entities absent at the time restored and gone live too: nothing to do. */
    public static final String ABSENT = "absent then and now";
    /** The counter of entities a restore's query does not select. */
    public static final String NOT_SELECTED = "not selected";

    /** The counter of entities absent in the source database and here: nothing to do. */
    public static final String ABSENT_IN_SOURCE = "absent in the source and here";
    /** The counter of entities absent in the source database and kept here (no {@code --remove-added}). */
    public static final String NOT_IN_SOURCE_KEPT = "not in the source, kept";
    /** The counter of entities absent in the source database and deleted here ({@code --remove-added}). */
    public static final String NOT_IN_SOURCE_REMOVED = "not in the source, removed";

    /** A restore from the database's past. */
    public PastRestore(RestoreMode mode, boolean until, boolean removeAdded) {
        this(mode, until, removeAdded, RestoreMode.Backup.PAST);
    }

    /** The counter of entities already as they were at the time restored: nothing to write. */
    public static String already() {
        return RestoreMode.Backup.PAST.already();
    }

    /**
     * The writes for {@code keys}, given each one's state at T ({@code then}), at T2 ({@code later}; empty without
     * {@code until}) and live ({@code live}, as the commit's transaction read it); an absent state is no entry.
     */
    public MapResult decide(List<Key> keys, Map<Key, Entity> then, Map<Key, Entity> later, Map<Key, Entity> live) {
        return until ? undoWindow(keys, then, later, live) : asBackup(keys, then, live);
    }

    private MapResult asBackup(List<Key> keys, Map<Key, Entity> then, Map<Key, Entity> live) {
        List<Entity> backups = new ArrayList<>();
        List<Key> deletes = new ArrayList<>();
        Map<String, Long> counters = new HashMap<>();
        boolean past = from == RestoreMode.Backup.PAST;
        for (Key key : keys) {
            if (then.get(key) != null) {
                backups.add(then.get(key));
            } else if (live.get(key) == null) {
                counters.merge(past ? ABSENT : ABSENT_IN_SOURCE, 1L, Long::sum);
            } else if (removeAdded) {
                deletes.add(key);
                counters.merge(past ? ADDED_SINCE_REMOVED : NOT_IN_SOURCE_REMOVED, 1L, Long::sum);
            } else {
                counters.merge(past ? ADDED_KEPT : NOT_IN_SOURCE_KEPT, 1L, Long::sum);
            }
        }
        MapResult decided = mode.decide(backups, live, UnaryOperator.identity(), from);
        decided.counters().forEach((name, n) -> counters.merge(name, n, Long::sum));
        return new MapResult(decided.puts(), deletes, decided.skipped(), counters, List.of(), decided.problems());
    }

    private MapResult undoWindow(List<Key> keys, Map<Key, Entity> then, Map<Key, Entity> later,
                                 Map<Key, Entity> live) {
        List<Entity> puts = new ArrayList<>();
        List<Key> deletes = new ArrayList<>();
        List<MapResult.Problem> written = new ArrayList<>();
        Map<String, Long> counters = new HashMap<>();
        for (Key key : keys) {
            Entity a = then.get(key);
            Entity b = later.get(key);
            Entity now = live.get(key);
            if (Reverting.same(now, a)) {
                counters.merge(already(), 1L, Long::sum);
            } else if (!Reverting.same(now, b)) {
                written.add(new MapResult.Problem(key, WRITTEN_AFTER + ": " + afterWindow(b, now), WRITTEN_AFTER));
            } else if (a == null) {
                if (removeAdded) {
                    deletes.add(key);
                }
                counters.merge(removeAdded ? ADDED_REMOVED : ADDED_KEPT, 1L, Long::sum);
            } else {
                puts.add(a);
                counters.merge(now == null ? BROUGHT_BACK : REVERTED, 1L, Long::sum);
            }
        }
        if (!written.isEmpty()) {
            counters.put(JobReport.SKIPPED_PREFIX + WRITTEN_AFTER, (long) written.size());
        }
        return new MapResult(puts, deletes, written.size(), counters, List.of(), written);
    }

    /** What was written after the window, worded: "deleted after it", "balance: at --until 5, now 9". */
    private static String afterWindow(Entity atUntil, Entity now) {
        if (now == null) {
            return "deleted after it";
        }
        if (atUntil == null) {
            return "created after it";
        }
        return Reverting.differences(atUntil, now, "at --until");
    }
}
