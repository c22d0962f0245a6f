package io.keyranger.formats.managed;

import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Keys in an export's v3 form: an entity's key (a {@code Reference}: 13 app, 14 path of element groups 1 {2 kind,
 * 3 id, 4 name}, 20 namespace, 23 database) and a key value (a group: 13 app, 14 element groups {15 kind, 16 id,
 * 17 name}, 20 namespace, 23 database). An app id reads as its project id (App Engine's {@code s~} partition is
 * dropped, as Google's conversion does).
 */
final class References {
    private References() {
    }

    /**
     * An entity's key: placed in {@code project}/{@code database} when given (an exported entity's own key), else as the
     * export holds it (an embedded entity's, which may be incomplete); null for an embedded entity without a key.
     */
    static IncompleteKey entityKey(ByteString bytes, String project, String database) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(bytes.toByteArray());
        Parts parts = new Parts();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (WireFormat.getTagFieldNumber(tag) == 14) {
                CodedInputStream p = CodedInputStream.newInstance(in.readBytes().toByteArray());
                for (int t = p.readTag(); t != 0; t = p.readTag()) {
                    if (WireFormat.getTagFieldNumber(t) == 1
                            && WireFormat.getTagWireType(t) == WireFormat.WIRETYPE_START_GROUP) {
                        parts.path.add(element(p, 2, 3, 4));
                    } else {
                        p.skipField(t);
                    }
                }
            } else if (!parts.read(in, tag)) {
                in.skipField(tag);
            }
        }
        if (project != null) {
            parts.app = project;
            parts.database = database;
        }
        return parts.path.isEmpty() || parts.app.isEmpty() ? null : parts.key();
    }

    /** A key value, as the export holds it (its own project, namespace and database). */
    static Key keyValue(CodedInputStream in) throws IOException {
        Parts parts = new Parts();
        while (true) {
            int tag = in.readTag();
            if (tag == 0 || WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_END_GROUP) {
                break;
            }
            if (WireFormat.getTagFieldNumber(tag) == 14) {
                parts.path.add(element(in, 15, 16, 17));
            } else if (!parts.read(in, tag)) {
                in.skipField(tag);
            }
        }
        if (parts.app.isEmpty() || parts.path.isEmpty() || !(parts.key() instanceof Key key)) {
            throw new IOException("a key value has no project, or is empty or incomplete");
        }
        return key;
    }

    /** The parts of a key other than its path, as read. */
    private static final class Parts {
        String app = "";
        String namespace = "";
        String database = "";
        final List<Elem> path = new ArrayList<>();

        boolean read(CodedInputStream in, int tag) throws IOException {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 13 -> app = project(in.readStringRequireUtf8());
                case 20 -> namespace = in.readStringRequireUtf8();
                case 23 -> database = in.readStringRequireUtf8();
                default -> {
                    return false;
                }
            }
            return true;
        }

        IncompleteKey key() throws IOException {
            Elem last = path.get(path.size() - 1);
            List<PathElement> ancestors = new ArrayList<>();
            for (Elem e : path.subList(0, path.size() - 1)) {
                ancestors.add(e.complete());
            }
            if (last.id() != null || last.name() != null) {
                Key.Builder b = last.id() != null ? Key.newBuilder(app, last.kind(), last.id(), database)
                        : Key.newBuilder(app, last.kind(), last.name(), database);
                return b.setNamespace(namespace).addAncestors(ancestors).build();
            }
            return IncompleteKey.newBuilder(app, last.kind()).setDatabaseId(database).setNamespace(namespace)
                    .addAncestors(ancestors).build();
        }
    }

    /** An app id's project: {@code s~my-app} is {@code my-app}. */
    static String project(String app) {
        return app.substring(app.indexOf('~') + 1);
    }

    /** A key's path element as read: a kind, and an id, a name or (an incomplete key's last) neither. */
    private record Elem(String kind, Long id, String name) {
        PathElement complete() throws IOException {
            if (id == null && name == null) {
                throw new IOException("a key's ancestor " + kind + " has neither id nor name");
            }
            return id != null ? PathElement.of(kind, id) : PathElement.of(kind, name);
        }
    }

    private static Elem element(CodedInputStream in, int kindField, int idField, int nameField) throws IOException {
        String kind = null;
        Long id = null;
        String name = null;
        while (true) {
            int tag = in.readTag();
            if (tag == 0 || WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_END_GROUP) {
                break;
            }
            int field = WireFormat.getTagFieldNumber(tag);
            if (field == kindField) {
                kind = in.readStringRequireUtf8();
            } else if (field == idField) {
                id = in.readInt64();
            } else if (field == nameField) {
                name = in.readStringRequireUtf8();
            } else {
                in.skipField(tag);
            }
        }
        if (kind == null) {
            throw new IOException("a key's path element has no kind");
        }
        return new Elem(kind, id != null && id == 0 ? null : id, name != null && name.isEmpty() ? null : name);
    }
}
