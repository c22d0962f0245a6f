package io.keyranger.executor.store;

import com.google.cloud.datastore.DatastoreReader;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.Value;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.BookkeepingKinds;
import java.util.ArrayList;
import java.util.List;

/**
 * A plan's cell bounds as stored: on the plan entity itself, and when they are more than one entity holds (a job of
 * tens of thousands of cells: a thousand workers get several cells each to split at), on parts that are children of it,
 * so that the job, its plan and every part are written in one transaction and read with one lookup more.
 */
final class PlanParts {
    static final String PART_KIND = BookkeepingKinds.PREFIX + "PlanPart";
    /** Bytes of bounds (URL-safe keys) one entity holds: far within the 1 MiB entity limit. */
    static final int PART_BYTES = 400_000;

    private PlanParts() {
    }

    /** The plan entity (with {@code estimate} and the first bounds) and its parts, for {@code bounds} in key order. */
    static List<Entity> entities(Key planKey, List<Key> bounds, long estimate) {
        List<List<Key>> parts = new ArrayList<>();
        List<Key> part = new ArrayList<>();
        long bytes = 0;
        for (Key bound : bounds) {
            long size = bound.toUrlSafe().length();
            if (!part.isEmpty() && bytes + size > PART_BYTES) {
                parts.add(part);
                part = new ArrayList<>();
                bytes = 0;
            }
            part.add(bound);
            bytes += size;
        }
        parts.add(part);
        List<Entity> out = new ArrayList<>(parts.size());
        Entity.Builder plan = Entity.newBuilder(planKey).set("bounds", list(parts.get(0))).set("estimate", estimate);
        if (parts.size() > 1) {
            plan.set("parts", parts.size());
        }
        out.add(plan.build());
        for (int i = 1; i < parts.size(); i++) {
            out.add(Entity.newBuilder(partKey(planKey, i)).set("bounds", list(parts.get(i))).build());
        }
        return out;
    }

    /** Every bound of {@code plan}, its parts' included, in key order. */
    static List<Key> bounds(DatastoreReader reader, Entity plan) {
        List<Key> bounds = new ArrayList<>();
        plan.<KeyValue>getList("bounds").forEach(v -> bounds.add(v.get()));
        int parts = plan.contains("parts") ? (int) plan.getLong("parts") : 1;
        if (parts > 1) {
            Key[] keys = new Key[parts - 1];
            for (int i = 1; i < parts; i++) {
                keys[i - 1] = partKey(plan.getKey(), i);
            }
            List<Entity> found = reader.fetch(keys);
            for (int i = 0; i < found.size(); i++) {
                if (found.get(i) == null) {
                    throw new KeyRangerException("Part " + (i + 1) + " of the plan of job " + plan.getKey().getName()
                            + " is missing: the job's stored plan is damaged.");
                }
                found.get(i).<KeyValue>getList("bounds").forEach(v -> bounds.add(v.get()));
            }
        }
        return bounds;
    }

    private static Key partKey(Key planKey, int part) {
        return Key.newBuilder(planKey, PART_KIND, part).build();
    }

    private static ListValue list(List<Key> keys) {
        List<Value<?>> values = new ArrayList<>(keys.size());
        keys.forEach(k -> values.add(KeyValue.newBuilder(k).setExcludeFromIndexes(true).build()));
        return ListValue.of(values);
    }
}
