package io.keyranger.model;

import com.google.datastore.v1.Key;
import io.keyranger.keys.Collation;
import java.util.Comparator;

/**
 * Datastore's key order on wire-format keys, for the model server: path element by path element, kind first, then
 * ids (numerically) before names; a key sorts after its ancestors. Strings compare in the given collation: production
 * compares UTF-8 bytes, the legacy emulator UTF-16 code units.
 */
public final class ProtoKeyOrder implements Comparator<Key> {
    public static final ProtoKeyOrder PRODUCTION = new ProtoKeyOrder(Collation.UTF8);
    public static final ProtoKeyOrder EMULATOR = new ProtoKeyOrder(Collation.UTF16);

    private final Collation collation;

    private ProtoKeyOrder(Collation collation) {
        this.collation = collation;
    }

    @Override
    public int compare(Key a, Key b) {
        int common = Math.min(a.getPathCount(), b.getPathCount());
        for (int i = 0; i < common; i++) {
            int c = compareElements(a.getPath(i), b.getPath(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.getPathCount(), b.getPathCount());
    }

    private int compareElements(Key.PathElement a, Key.PathElement b) {
        int c = collation.compare(a.getKind(), b.getKind());
        if (c != 0) {
            return c;
        }
        boolean aId = a.getIdTypeCase() == Key.PathElement.IdTypeCase.ID;
        boolean bId = b.getIdTypeCase() == Key.PathElement.IdTypeCase.ID;
        if (aId && bId) {
            return Long.compare(a.getId(), b.getId());
        }
        if (aId != bId) {
            return aId ? -1 : 1;
        }
        return collation.compare(a.getName(), b.getName());
    }
}
