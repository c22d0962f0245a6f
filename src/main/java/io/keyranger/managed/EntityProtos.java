package io.keyranger.managed;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.LatLngValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The legacy App Engine entity protobuf (onestore v3 {@code EntityProto}) that managed exports hold, read into the
 * entities KeyRanger's codec handles: every value type, arrays (repeated properties marked multiple), embedded
 * entities, unindexed properties (the raw ones), ancestors and namespaces. Only what exports use is read; unknown
 * fields are skipped.
 */
public final class EntityProtos {
    // EntityProto
    private static final int KEY = 13;
    private static final int PROPERTY = 14;
    private static final int RAW_PROPERTY = 15;
    // Reference (and its Path of Element groups)
    private static final int APP = 13;
    private static final int PATH = 14;
    private static final int NAME_SPACE = 20;
    private static final int DATABASE = 23;
    private static final int ELEMENT = 1;
    // Property
    private static final int MEANING = 1;
    private static final int NAME = 3;
    private static final int MULTIPLE = 4;
    private static final int VALUE = 5;
    // Property meanings that change how a value reads
    static final int GD_WHEN = 7;
    static final int GEORSS_POINT = 9;
    static final int BLOB = 14;
    static final int TEXT = 15;
    static final int BYTESTRING = 16;
    static final int ENTITY_PROTO = 19;
    static final int EMPTY_LIST = 24;

    private final String projectId;
    private final String databaseId;

    /** Keys are placed in {@code projectId}/{@code databaseId} (an export's own app id is the source's). */
    public EntityProtos(String projectId, String databaseId) {
        this.projectId = projectId;
        this.databaseId = databaseId == null ? "" : databaseId;
    }

    /** One exported entity; a malformed one is an {@link IOException} saying what is wrong. */
    public Entity entity(byte[] bytes) throws IOException {
        FullEntity<?> read = read(CodedInputStream.newInstance(bytes));
        if (!(read.getKey() instanceof Key key)) {
            throw new IOException("an exported entity has no complete key");
        }
        return Entity.newBuilder(key, read).build();
    }

    private FullEntity<?> read(CodedInputStream in) throws IOException {
        IncompleteKey key = null;
        Map<String, List<Value<?>>> values = new LinkedHashMap<>();
        Map<String, Boolean> lists = new LinkedHashMap<>();
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            int field = WireFormat.getTagFieldNumber(tag);
            if (field == KEY && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                key = reference(in.readBytes());
            } else if ((field == PROPERTY || field == RAW_PROPERTY)
                    && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                property(CodedInputStream.newInstance(in.readBytes().toByteArray()), field == RAW_PROPERTY, values,
                        lists);
            } else {
                in.skipField(tag);
            }
        }
        FullEntity.Builder<IncompleteKey> b = key == null ? FullEntity.newBuilder() : FullEntity.newBuilder(key);
        values.forEach((name, list) -> {
            if (lists.get(name)) {
                b.set(name, ListValue.of(list));
            } else {
                b.set(name, list.get(0));
            }
        });
        return b.build();
    }

    private void property(CodedInputStream in, boolean unindexed, Map<String, List<Value<?>>> values,
                          Map<String, Boolean> lists) throws IOException {
        int meaning = 0;
        String name = null;
        boolean multiple = false;
        ByteString value = ByteString.EMPTY;
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            switch (WireFormat.getTagFieldNumber(tag)) {
                case MEANING -> meaning = in.readInt32();
                case NAME -> name = in.readStringRequireUtf8();
                case MULTIPLE -> multiple = in.readBool();
                case VALUE -> value = in.readBytes();
                default -> in.skipField(tag);
            }
        }
        if (name == null) {
            throw new IOException("a property has no name");
        }
        List<Value<?>> list = values.computeIfAbsent(name, n -> new ArrayList<>());
        lists.merge(name, multiple || meaning == EMPTY_LIST, Boolean::logicalOr);
        if (meaning == EMPTY_LIST) {
            return;
        }
        list.add(value(CodedInputStream.newInstance(value.toByteArray()), meaning, unindexed));
    }

    private Value<?> value(CodedInputStream in, int meaning, boolean unindexed) throws IOException {
        Value<?> plain = null;
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> {
                    long n = in.readInt64();
                    plain = meaning == GD_WHEN ? TimestampValue.newBuilder(Timestamp.ofTimeMicroseconds(n))
                            .setExcludeFromIndexes(unindexed).build() : LongValue.newBuilder(n)
                            .setExcludeFromIndexes(unindexed).build();
                }
                case 2 -> plain = BooleanValue.newBuilder(in.readBool()).setExcludeFromIndexes(unindexed).build();
                case 3 -> plain = bytes(in.readBytes(), meaning, unindexed);
                case 4 -> plain = DoubleValue.newBuilder(in.readDouble()).setExcludeFromIndexes(unindexed).build();
                case 5 -> plain = point(in, unindexed);
                case 12 -> plain = KeyValue.newBuilder((Key) referenceGroup(in)).setExcludeFromIndexes(unindexed)
                        .build();
                default -> in.skipField(tag);
            }
        }
        return plain != null ? plain : NullValue.newBuilder().setExcludeFromIndexes(unindexed).build();
    }

    private Value<?> bytes(ByteString bytes, int meaning, boolean unindexed) throws IOException {
        return switch (meaning) {
            case BLOB, BYTESTRING -> BlobValue.newBuilder(Blob.copyFrom(bytes.toByteArray()))
                    .setExcludeFromIndexes(unindexed).build();
            case ENTITY_PROTO -> EntityValue.newBuilder(read(CodedInputStream.newInstance(bytes.toByteArray())))
                    .setExcludeFromIndexes(unindexed).build();
            default -> StringValue.newBuilder(bytes.toStringUtf8()).setExcludeFromIndexes(unindexed).build();
        };
    }

    private Value<?> point(CodedInputStream in, boolean unindexed) throws IOException {
        double lat = 0;
        double lng = 0;
        while (true) {
            int tag = in.readTag();
            if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_END_GROUP) {
                break;
            }
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 6 -> lat = in.readDouble();
                case 7 -> lng = in.readDouble();
                default -> in.skipField(tag);
            }
        }
        return LatLngValue.newBuilder(LatLng.of(lat, lng)).setExcludeFromIndexes(unindexed).build();
    }

    /** A key as a property value: a group with the path's elements as groups (15 kind, 16 id, 17 name). */
    private IncompleteKey referenceGroup(CodedInputStream in) throws IOException {
        String namespace = "";
        List<Elem> path = new ArrayList<>();
        while (true) {
            int tag = in.readTag();
            if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_END_GROUP) {
                break;
            }
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 14 -> path.add(element(in, 15, 16, 17));
                case NAME_SPACE -> namespace = in.readStringRequireUtf8();
                default -> in.skipField(tag);
            }
        }
        return key(namespace, path);
    }

    /** An entity's key (or, in an embedded entity, an empty one): app, namespace and a Path of Element groups. */
    private IncompleteKey reference(ByteString bytes) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(bytes.toByteArray());
        String namespace = "";
        List<Elem> path = new ArrayList<>();
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            switch (WireFormat.getTagFieldNumber(tag)) {
                case PATH -> {
                    CodedInputStream p = CodedInputStream.newInstance(in.readBytes().toByteArray());
                    for (int t = p.readTag(); t != 0; t = p.readTag()) {
                        if (WireFormat.getTagFieldNumber(t) == ELEMENT
                                && WireFormat.getTagWireType(t) == WireFormat.WIRETYPE_START_GROUP) {
                            path.add(element(p, 2, 3, 4));
                        } else {
                            p.skipField(t);
                        }
                    }
                }
                case NAME_SPACE -> namespace = in.readStringRequireUtf8();
                default -> in.skipField(tag);
            }
        }
        return path.isEmpty() ? null : key(namespace, path);
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

    private static Elem element(CodedInputStream in, int kindField, int idField, int nameField)
            throws IOException {
        String kind = null;
        Long id = null;
        String name = null;
        while (true) {
            int tag = in.readTag();
            if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_END_GROUP || tag == 0) {
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
        return new Elem(kind, id, name);
    }

    private IncompleteKey key(String namespace, List<Elem> path) throws IOException {
        Elem last = path.get(path.size() - 1);
        List<PathElement> ancestors = new ArrayList<>();
        for (Elem e : path.subList(0, path.size() - 1)) {
            ancestors.add(e.complete());
        }
        if (last.id() != null) {
            return Key.newBuilder(projectId, last.kind(), last.id(), databaseId).setNamespace(namespace)
                    .addAncestors(ancestors).build();
        }
        if (last.name() != null) {
            return Key.newBuilder(projectId, last.kind(), last.name(), databaseId).setNamespace(namespace)
                    .addAncestors(ancestors).build();
        }
        return IncompleteKey.newBuilder(projectId, last.kind()).setDatabaseId(databaseId).setNamespace(namespace)
                .addAncestors(ancestors).build();
    }
}
