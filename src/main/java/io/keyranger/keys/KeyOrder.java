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
        List<PathElement> pa = KeyPaths.path(a);
        List<PathElement> pb = KeyPaths.path(b);
        int common = Math.min(pa.size(), pb.size());
        for (int i = 0; i < common; i++) {
            int c = compareElements(pa.get(i), pb.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(pa.size(), pb.size());
    }

    /** Compares two path elements: kind, then id before name. */
    public int compareElements(PathElement a, PathElement b) {
        int c = collation.compare(a.getKind(), b.getKind());
        if (c != 0) {
            return c;
        }
        if (a.hasId() && b.hasId()) {
            return Long.compare(a.getId(), b.getId());
        }
        if (a.hasId() != b.hasId()) {
            return a.hasId() ? -1 : 1;
        }
        return collation.compare(a.getName(), b.getName());
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
