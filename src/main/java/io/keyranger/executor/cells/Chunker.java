package io.keyranger.executor.cells;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import io.keyranger.datastore.ServerLimits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Cuts a page into commit-sized chunks: each chunk's transaction, with the ledgers of the cells it spans (one more for
 * the span's tail into the next cell) and a counter shard, stays within the server's entity-group and mutation
 * limits. Keys under the same root share an entity group.
 */
public final class Chunker {
    /** One counter shard rides in every commit. */
    public static final int SHARD = 1;

    private Chunker() {
    }

    /** As below, for a job with one cell. */
    public static List<List<Key>> chunks(List<Key> page, ServerLimits limits, boolean touchesEntities) {
        return chunks(page, limits, touchesEntities, 1, null);
    }

    /** As below, for a job with one cell. */
    public static List<List<Key>> chunks(List<Key> page, ServerLimits limits, boolean touchesEntities, int groupsPerKey) {
        return chunks(page, limits, touchesEntities, groupsPerKey, null);
    }

    /**
     * Chunks for a mapper that touches {@code groupsPerKey} entity groups (and mutations) per key, or none when it does
     * not touch entities (a count), in a job cut into {@code cells} (null: one cell).
     */
    public static List<List<Key>> chunks(List<Key> page, ServerLimits limits, boolean touchesEntities, int groupsPerKey,
                                  CellPlan cells) {
        return chunks(page, limits, touchesEntities, groupsPerKey, false, cells);
    }

    /**
     * As above; with {@code undo}, each key also writes an undo record (a mutation more, in its ledger's entity group,
     * which the chunk counts already).
     */
    public static List<List<Key>> chunks(List<Key> page, ServerLimits limits, boolean touchesEntities, int groupsPerKey,
                                  boolean undo, CellPlan cells) {
        int perKey = touchesEntities ? Math.max(1, groupsPerKey) : 0;
        int mutationsPerKey = perKey + (undo ? 1 : 0);
        int maxGroups = limits.maxEntityGroups() == 0 ? Integer.MAX_VALUE : limits.maxEntityGroups();
        List<List<Key>> chunks = new ArrayList<>();
        List<Key> current = new ArrayList<>();
        Set<PathElement> roots = new HashSet<>();
        int firstCell = 0;
        for (Key key : page) {
            PathElement root = root(key);
            int cell = cells == null ? 0 : cells.cellOf(key);
            if (!current.isEmpty()) {
                int ledgers = cell - firstCell + 2; // the cells from the first key's to this one's, and the tail
                // the keys' own groups, and each key's others (a copy's target, a revert's entity) counted apart
                int own = perKey == 0 ? 0 : roots.size() + (roots.contains(root) ? 0 : 1);
                int groups = own + Math.max(0, perKey - 1) * (current.size() + 1) + ledgers + SHARD;
                int mutations = (current.size() + 1) * mutationsPerKey + ledgers + SHARD;
                if (groups > maxGroups || mutations > limits.maxMutations()) {
                    chunks.add(current);
                    current = new ArrayList<>();
                    roots.clear();
                }
            }
            if (current.isEmpty()) {
                firstCell = cell;
            }
            current.add(key);
            roots.add(root);
        }
        if (!current.isEmpty()) {
            chunks.add(current);
        }
        return chunks;
    }

    private static PathElement root(Key key) {
        if (!key.getAncestors().isEmpty()) {
            return key.getAncestors().get(0);
        }
        return key.hasId() ? PathElement.of(key.getKind(), key.getId()) : PathElement.of(key.getKind(), key.getName());
    }
}
