package io.keyranger.formats.undo;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Value;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.EntityJson;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What reverting one entity means: compare it as it is now with the job's after state. If they match, the job's change
 * is still there and the before state comes back (a deleted entity is recreated, a created one deleted). If the entity
 * is already as it was before, nothing is left to do. Otherwise someone changed it since the job: a conflict.
 */
public final class Reverting {
    /** The most differences a conflict names. */
    static final int MAX_NAMED = 4;

    private Reverting() {
    }

    /** What to do with one entity. */
    public enum Verdict { RESTORE, ALREADY_BEFORE, CONFLICT }

    public static Verdict verdict(UndoImage image, Entity live) {
        if (same(live, image.after())) {
            return Verdict.RESTORE;
        }
        return same(live, image.before()) ? Verdict.ALREADY_BEFORE : Verdict.CONFLICT;
    }

    /** Whether two states of one entity are equal: both absent, or the same properties with types and index flags. */
    public static boolean same(Entity a, Entity b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.getProperties().equals(b.getProperties());
    }

    /** What differs between the job's after state and the entity now, e.g. "n: the job left 5, now 9". */
    public static String differences(Entity after, Entity live) {
        return differences(after, live, "the job left");
    }

    /** What differs between a kept state and the entity now, each as "n: {@code kept} 5, now 9". */
    public static String differences(Entity after, Entity live, String kept) {
        if (after == null) {
            return "the job deleted it; it exists again";
        }
        if (live == null) {
            return "deleted since the job";
        }
        TreeSet<String> names = new TreeSet<>(after.getNames());
        names.addAll(live.getNames());
        List<String> named = new ArrayList<>();
        int differing = 0;
        for (String name : names) {
            Value<?> left = after.contains(name) ? after.getValue(name) : null;
            Value<?> now = live.contains(name) ? live.getValue(name) : null;
            if (left == null ? now == null : left.equals(now)) {
                continue;
            }
            differing++;
            if (named.size() < MAX_NAMED) {
                String was = show(left);
                String is = show(now);
                if (was.equals(is)) { // the same text: what differs is the value's meaning, or its type
                    boolean meaning = EntityCodec.meaning(left) != EntityCodec.meaning(now);
                    was += meaning ? " (meaning " + EntityCodec.meaning(left) + ")" : " (" + left.getType() + ")";
                    is += meaning ? " (meaning " + EntityCodec.meaning(now) + ")" : " (" + now.getType() + ")";
                }
                named.add(name + ": " + kept + " " + was + ", now " + is);
            }
        }
        return String.join("; ", named) + (differing > named.size() ? "; and " + (differing - named.size())
                + " more" : "");
    }

    private static String show(Value<?> value) {
        if (value == null) {
            return "(missing)";
        }
        String cell = EntityJson.cell(value);
        return (cell.length() > 60 ? cell.substring(0, 60) + "…" : cell)
                + (value.excludeFromIndexes() ? " (unindexed)" : "");
    }
}
