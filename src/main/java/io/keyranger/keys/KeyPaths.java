package io.keyranger.keys;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import java.util.ArrayList;
import java.util.List;

/** Converts between keys and their full paths (ancestors followed by the key's own element). */
public final class KeyPaths {
    private KeyPaths() {
    }

    public static List<PathElement> path(Key key) {
        List<PathElement> ancestors = key.getAncestors();
        List<PathElement> path = new ArrayList<>(ancestors.size() + 1);
        path.addAll(ancestors);
        path.add(key.hasId() ? PathElement.of(key.getKind(), key.getId()) : PathElement.of(key.getKind(), key.getName()));
        return path;
    }

    /** A key in the partition of {@code like} with the given full path. */
    public static Key keyOf(Key like, List<PathElement> path) {
        PathElement last = path.get(path.size() - 1);
        Key.Builder builder = last.hasId()
                ? Key.newBuilder(like.getProjectId(), last.getKind(), last.getId(), database(like))
                : Key.newBuilder(like.getProjectId(), last.getKind(), last.getName(), database(like));
        builder.setNamespace(like.getNamespace());
        builder.addAncestors(path.subList(0, path.size() - 1));
        return builder.build();
    }

    private static String database(Key key) {
        return key.getDatabaseId() == null ? "" : key.getDatabaseId();
    }
}
