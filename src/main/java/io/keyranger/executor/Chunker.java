package io.keyranger.executor;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import io.keyranger.datastore.ServerLimits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Cuts a page into commit-sized chunks: each chunk, with its cells' ledgers and a counter shard, stays within the
 * server's entity-group and mutation limits. Keys under the same root share an entity group.
 */
final class Chunker {
    /** The ledgers of the chunk's cells and one counter shard ride in every commit. */
    static final int BOOKKEEPING_ENTITIES = CellCommitter.MAX_LEDGERS + 1;
    /** Entity groups of a chunk's transaction besides its keys': its cells' ledgers and a counter shard. */
    static final int BOOKKEEPING_GROUPS = CellCommitter.MAX_LEDGERS + 1;

    private Chunker() {
    }

    static List<List<Key>> chunks(List<Key> page, ServerLimits limits, boolean touchesEntities) {
        return chunks(page, limits, touchesEntities, 1);
    }

    /** As above, for a mapper that touches {@code groupsPerKey} entity groups (and mutations) per key. */
    static List<List<Key>> chunks(List<Key> page, ServerLimits limits, boolean touchesEntities, int groupsPerKey) {
        if (!touchesEntities) {
            return List.of(page);
        }
        int perKey = Math.max(1, groupsPerKey);
        int maxKeys = (limits.maxMutations() - BOOKKEEPING_ENTITIES) / perKey;
        int maxGroups = limits.maxEntityGroups() == 0 ? Integer.MAX_VALUE
                : (limits.maxEntityGroups() - BOOKKEEPING_GROUPS) / perKey;
        List<List<Key>> chunks = new ArrayList<>();
        List<Key> current = new ArrayList<>();
        Set<PathElement> roots = new HashSet<>();
        for (Key key : page) {
            PathElement root = root(key);
            boolean newGroup = !roots.contains(root);
            if (!current.isEmpty() && (current.size() >= maxKeys || (newGroup && roots.size() >= maxGroups))) {
                chunks.add(current);
                current = new ArrayList<>();
                roots.clear();
                newGroup = true;
            }
            current.add(key);
            if (newGroup) {
                roots.add(root);
            }
        }
        if (!current.isEmpty()) {
            chunks.add(current);
        }
        return chunks;
    }

    /** {@code chunk} cut so that each part holds keys of at most {@code maxCells} cells (keys in order). */
    static List<List<Key>> byCells(List<Key> chunk, CellPlan cells, int maxCells) {
        List<List<Key>> parts = new ArrayList<>();
        List<Key> current = new ArrayList<>();
        int seen = 0;
        int lastCell = -1;
        for (Key key : chunk) {
            int cell = cells.cellOf(key);
            if (cell != lastCell) {
                if (seen == maxCells) {
                    parts.add(current);
                    current = new ArrayList<>();
                    seen = 0;
                }
                seen++;
                lastCell = cell;
            }
            current.add(key);
        }
        if (!current.isEmpty()) {
            parts.add(current);
        }
        return parts;
    }

    private static PathElement root(Key key) {
        if (!key.getAncestors().isEmpty()) {
            return key.getAncestors().get(0);
        }
        return key.hasId() ? PathElement.of(key.getKind(), key.getId()) : PathElement.of(key.getKind(), key.getName());
    }
}
