package io.keyranger.job;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.mapper.MapResult;
import io.keyranger.formats.undo.Reverting;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What an import does with an entity that exists live. {@link #OVERWRITE} writes every entity of its input (an import
 * of a JSON lines file does, as it always did). The restores of a backup decide per entity, against the entity as the
 * commit's transaction reads it: {@link #SKIP_CHANGED} brings back what is missing and leaves what changed since the
 * backup alone, reporting each (a conflict); {@link #MISSING_ONLY} brings back only what is missing, and counts the
 * rest as present. An entity equal to its backup is not written in either, nor by an overwrite from the past, whose
 * commit reads every key live anyway (an overwrite from an export reads nothing live and writes every entity). The
 * backup is a managed export, or the database as it was at a past moment ({@link Backup}), and the counters and
 * reasons say which.
 */
public enum RestoreMode {
    OVERWRITE("overwrite"), SKIP_CHANGED("skip-changed"), MISSING_ONLY("missing-only");

    /** The reason an entity changed since the export is skipped with ({@code skipped: ...}). */
    public static final String CHANGED = Backup.EXPORT.changed();
    /** The counter of entities equal to their backup: nothing to write. */
    public static final String ALREADY = Backup.EXPORT.already();
    /** The counter of entities that exist live, left alone by a missing-only restore. */
    public static final String PRESENT = "present live, left alone";
    /** The counter of entities an overwrite from the past wrote back over what changed since. */
    public static final String OVERWRITTEN = "restored over a later change";
    /** The counter of entities brought back because they were missing. */
    public static final String RECREATED = "restored (missing)";

    /** What a restore brings back: a managed export, or the database at a past moment ({@code restore --as-of}). */
    public enum Backup {
        EXPORT("the export", "in", "the export has"), PAST("the time restored", "at", "then it had"),
        /** Another database (another project, database or namespace). */
        SOURCE("the source", "in", "the source has");

        private final String noun;
        private final String preposition;
        private final String had;

        Backup(String noun, String preposition, String had) {
            this.noun = noun;
            this.preposition = preposition;
            this.had = had;
        }

        /** The reason an entity changed since the backup is skipped with: "changed since the export". */
        public String changed() {
            return "changed since " + noun;
        }

        /** The counter of entities equal to their backup: "already as in the export". */
        public String already() {
            return "already as " + preposition + " " + noun;
        }

        /** What differs, worded for this backup: "balance: the export has 5, now 9". */
        public String differences(Entity backup, Entity now) {
            return Reverting.differences(backup, now, had);
        }
    }

    private final String id;

    RestoreMode(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** The mode a spec or an option names; a clear error for any other word. */
    public static RestoreMode of(String id) {
        for (RestoreMode mode : values()) {
            if (mode.id.equals(id)) {
                return mode;
            }
        }
        throw new KeyRangerException("The restore mode must be skip-changed, overwrite or missing-only (got '" + id
                + "').");
    }

    /** Whether this mode reads the live entities of a chunk before it writes. */
    public boolean readsLive() {
        return this != OVERWRITE;
    }

    /**
     * The chunk's writes, given what lives now ({@code live}: every key of the chunk, null when absent; empty when
     * this mode reads nothing), with the counters and, for entities changed since the backup, one problem each.
     */
    public MapResult decide(List<Entity> chunk, Map<Key, Entity> live, UnaryOperator<Entity> placing) {
        return decide(chunk, live, placing, Backup.EXPORT);
    }

    /** As above, with the counters and reasons worded for {@code from}. */
    public MapResult decide(List<Entity> chunk, Map<Key, Entity> live, UnaryOperator<Entity> placing, Backup from) {
        if (this == OVERWRITE && from == Backup.EXPORT) { // it reads nothing live: every entity written
            return new MapResult(chunk.stream().map(placing).toList(), List.of(), 0, Map.of());
        }
        List<Entity> puts = new ArrayList<>();
        List<MapResult.Problem> changed = new ArrayList<>();
        Map<String, Long> counters = new HashMap<>();
        long present = 0;
        for (Entity backup : chunk) {
            Entity now = live.get(backup.getKey());
            if (now == null) {
                puts.add(placing.apply(backup));
                counters.merge(RECREATED, 1L, Long::sum);
            } else if (asBackup(backup, now, placing)) {
                counters.merge(from.already(), 1L, Long::sum);
            } else if (this == OVERWRITE) { // from the past, whose commit reads every key live
                puts.add(placing.apply(backup));
                counters.merge(OVERWRITTEN, 1L, Long::sum);
            } else if (this == MISSING_ONLY) {
                present++;
            } else {
                changed.add(new MapResult.Problem(backup.getKey(), from.differences(backup, now), // the key is
                        from.changed())); // the problem's: a report writes "key: reason"
            }
        }
        if (present > 0) {
            counters.put(PRESENT, present);
        }
        if (!changed.isEmpty()) {
            counters.put(JobReport.SKIPPED_PREFIX + from.changed(), (long) changed.size());
        }
        return new MapResult(puts, List.of(), changed.size(), counters, List.of(), changed);
    }

    /**
     * Whether {@code now} is as its backup: equal to it as read, or as a restore writes it ({@code placing}: a managed
     * export's keys placed as Google's import places them, see {@link io.keyranger.datastore.ImportPlacement}).
     */
    public static boolean asBackup(Entity backup, Entity now, UnaryOperator<Entity> placing) {
        return Reverting.same(now, backup) || Reverting.same(now, placing.apply(backup));
    }

    /** What differs, worded for a backup: "balance: the export has 5, now 9". */
    public static String differences(Entity backup, Entity now) {
        return Backup.EXPORT.differences(backup, now);
    }
}
