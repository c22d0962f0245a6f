package io.keyranger.executor.cells;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import java.util.Collection;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Turns, within one process, for the commits that write into one entity group, on a server whose transactions
 * conflict by entity group (the legacy emulator: a commit aborts when another changed any entity of a group it
 * touched, not only the same entity). Without them, a job's workers that write entities of a few large groups (an
 * export holds them in no key order, so every chunk of a restore has some) abort each other's commits over and over.
 * A commit takes the turns of its entities' groups (striped, in one order, so two commits never wait on each other in
 * a circle) for the length of its transaction. On a server that locks per entity (production), there are none.
 */
final class GroupTurns {
    private static final int STRIPES = 4_096;
    /** What a commit holds; closing it gives the turns back. */
    interface Held extends AutoCloseable {
        @Override
        void close();
    }

    private static final Held NONE = () -> { };
    private final ReentrantLock[] stripes;

    GroupTurns(boolean byGroup) {
        this.stripes = byGroup ? new ReentrantLock[STRIPES] : null;
        if (byGroup) {
            for (int i = 0; i < STRIPES; i++) {
                stripes[i] = new ReentrantLock();
            }
        }
    }

    /** Waits for the turns of the groups of {@code keys}, and holds them until closed. */
    Held take(Collection<Key> keys) {
        if (stripes == null || keys.isEmpty()) {
            return NONE;
        }
        TreeSet<Integer> wanted = new TreeSet<>();
        for (Key key : keys) {
            wanted.add(Math.floorMod(rootHash(key), STRIPES));
        }
        for (int i : wanted) {
            stripes[i].lock();
        }
        return () -> wanted.descendingSet().forEach(i -> stripes[i].unlock());
    }

    /** The hash of the entity group {@code key} is in: its partition and the first element of its path. */
    private static int rootHash(Key key) {
        PathElement root = key.getAncestors().isEmpty() ? null : key.getAncestors().get(0);
        Object id = root == null ? (key.hasId() ? key.getId() : key.getName())
                : root.hasId() ? root.getId() : root.getName();
        return Objects.hash(key.getProjectId(), key.getNamespace(), root == null ? key.getKind() : root.getKind(), id);
    }
}
