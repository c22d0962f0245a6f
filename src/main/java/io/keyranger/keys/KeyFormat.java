package io.keyranger.keys;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;

/** Renders keys readably: {@code Org:"acme" > Account:42}; names are quoted, ids are not. */
public final class KeyFormat {
    private KeyFormat() {
    }

    public static String format(Key key) {
        StringBuilder out = new StringBuilder();
        for (PathElement ancestor : key.getAncestors()) {
            appendElement(out, ancestor.getKind(), ancestor.getId(), ancestor.getName());
            out.append(" > ");
        }
        appendElement(out, key.getKind(), key.getId(), key.getName());
        return out.toString();
    }

    private static void appendElement(StringBuilder out, String kind, Long id, String name) {
        out.append(kind).append(':');
        if (name != null) {
            out.append('"').append(name.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        } else {
            out.append(id);
        }
    }
}
