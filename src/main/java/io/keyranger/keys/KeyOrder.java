package io.keyranger.keys;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import io.keyranger.KeyRangerException;
import java.util.Comparator;
import java.util.List;

/**
 * Orders keys exactly as the Datastore server does: path element by element, each by kind, then by identifier with
 * numeric ids before names, ids numerically; an ancestor before its descendants. Strings (kinds and names) follow
 * the server's {@link Collation}: UTF-8 bytes in production ({@link #PRODUCTION}), UTF-16 code units on the legacy
 * emulator ({@link #EMULATOR}); the two differ for characters above U+FFFF against U+E000–U+FFFF. Keys of different
 * partitions have no order and are refused.
 */
public final class KeyOrder implements Comparator<Key> {
    /** The order of production Firestore in Datastore mode. */
    public static final KeyOrder PRODUCTION = new KeyOrder(Collation.UTF8);
    /** The order of the legacy Cloud Datastore emulator. */
    public static final KeyOrder EMULATOR = new KeyOrder(Collation.UTF16);

    private final Collation collation;

    private KeyOrder(Collation collation) {
        this.collation = collation;
    }


    public Collation collation() {
        return collation;
    }

    @Override
    public int compare(Key a, Key b) {
        requireSamePartition(a, b);
        // element by element along the paths, without building them: a job compares keys in every binary search
        List<PathElement> ancestorsA = a.getAncestors();
        List<PathElement> ancestorsB = b.getAncestors();
        int common = Math.min(ancestorsA.size(), ancestorsB.size());
        for (int i = 0; i < common; i++) {
            int c = compareElements(ancestorsA.get(i), ancestorsB.get(i));
            if (c != 0) {
                return c;
            }
        }
        if (ancestorsA.size() == ancestorsB.size()) {
            return compareElements(a.getKind(), a.hasId(), a.getId(), a.getName(), b.getKind(), b.hasId(), b.getId(),
                    b.getName());
        }
        // one path is longer: the shorter one's own element against the longer one's there, and a prefix first
        if (ancestorsA.size() < ancestorsB.size()) {
            PathElement e = ancestorsB.get(common);
            int c = compareElements(a.getKind(), a.hasId(), a.getId(), a.getName(), e.getKind(), e.hasId(),
                    e.getId(), e.getName());
            return c != 0 ? c : -1;
        }
        PathElement e = ancestorsA.get(common);
        int c = compareElements(e.getKind(), e.hasId(), e.getId(), e.getName(), b.getKind(), b.hasId(), b.getId(),
                b.getName());
        return c != 0 ? c : 1;
    }

    /** Compares two path elements: kind, then id before name. */
    public int compareElements(PathElement a, PathElement b) {
        return compareElements(a.getKind(), a.hasId(), a.getId(), a.getName(), b.getKind(), b.hasId(), b.getId(),
                b.getName());
    }

    private int compareElements(String kindA, boolean hasIdA, Long idA, String nameA, String kindB, boolean hasIdB,
                                Long idB, String nameB) {
        int c = collation.compare(kindA, kindB);
        if (c != 0) {
            return c;
        }
        if (hasIdA && hasIdB) {
            return Long.compare(idA, idB);
        }
        if (hasIdA != hasIdB) {
            return hasIdA ? -1 : 1;
        }
        return collation.compare(nameA, nameB);
    }

    @Override
    public String toString() {
        return "KeyOrder(" + collation + ")";
    }

    /** Refuses keys that live in different projects, databases or namespaces: their order is undefined. */
    public static void requireSamePartition(Key a, Key b) {
        if (!a.getProjectId().equals(b.getProjectId()) || !a.getNamespace().equals(b.getNamespace())
                || !databaseOf(a).equals(databaseOf(b))) {
            throw new KeyRangerException("Keys from different partitions cannot be compared: "
                    + describePartition(a) + " vs " + describePartition(b) + ".");
        }
    }

    private static String databaseOf(Key key) {
        return key.getDatabaseId() == null ? "" : key.getDatabaseId();
    }

    private static String describePartition(Key key) {
        return "project " + key.getProjectId() + (databaseOf(key).isEmpty() ? "" : ", database " + databaseOf(key))
                + ", namespace '" + key.getNamespace() + "'";
    }
}
