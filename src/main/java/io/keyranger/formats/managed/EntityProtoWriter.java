package io.keyranger.formats.managed;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueType;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import io.keyranger.datastore.EntityCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Entities to the legacy {@code EntityProto} of a managed export, as {@link EntityProtos} reads them and as
 * {@code gcloud datastore import} (and the emulator's {@code :import}) loads them: indexed properties and raw ones,
 * arrays as repeated properties marked multiple (an empty one by its meaning), embedded entities as nested protos with
 * their keys (complete or incomplete), keys with their own project, namespace and database, and each value's meaning
 * as Google's export writes it ({@link Meanings}).
 */
final class EntityProtoWriter {
    private EntityProtoWriter() {
    }

    /** One entity, or an embedded one (no key: an empty reference, as exports write it). */
    static byte[] entity(FullEntity<?> entity) throws IOException {
        return message(out -> {
            IncompleteKey key = entity.getKey();
            out.writeByteArray(13, reference(key));
            List<byte[]> indexed = new ArrayList<>();
            List<byte[]> raw = new ArrayList<>();
            for (String name : entity.getNames()) {
                Value<?> value = entity.getValue(name);
                if (value.getType() == ValueType.LIST) {
                    List<? extends Value<?>> items = (List<? extends Value<?>>) value.get();
                    if (items.isEmpty()) {
                        (value.excludeFromIndexes() ? raw : indexed).add(emptyList(name));
                    }
                    for (Value<?> item : items) {
                        (item.excludeFromIndexes() ? raw : indexed).add(property(name, true, item));
                    }
                } else {
                    (value.excludeFromIndexes() ? raw : indexed).add(property(name, false, value));
                }
            }
            for (byte[] p : indexed) {
                out.writeByteArray(14, p);
            }
            for (byte[] p : raw) {
                out.writeByteArray(15, p);
            }
            out.writeByteArray(16, key instanceof Key complete ? path(List.of(elements(complete).get(0)), null)
                    : key != null && !key.getAncestors().isEmpty() ? path(List.of(key.getAncestors().get(0)), null)
                    : new byte[0]);
        });
    }

    /** An entity's key, complete or not (an incomplete one's last element has a kind only), or an empty one. */
    private static byte[] reference(IncompleteKey key) throws IOException {
        return message(out -> {
            out.writeString(13, key == null ? "" : key.getProjectId());
            out.writeByteArray(14, key == null ? new byte[0] : key instanceof Key complete
                    ? path(elements(complete), null) : path(key.getAncestors(), key.getKind()));
            if (key != null && !key.getNamespace().isEmpty()) {
                out.writeString(20, key.getNamespace());
            }
            if (key != null && key.getDatabaseId() != null && !key.getDatabaseId().isEmpty()) {
                out.writeString(23, key.getDatabaseId());
            }
        });
    }

    private static List<PathElement> elements(Key key) {
        List<PathElement> path = new ArrayList<>(key.getAncestors());
        path.add(key.hasId() ? PathElement.of(key.getKind(), key.getId()) : PathElement.of(key.getKind(), key.getName()));
        return path;
    }

    /** A path of complete elements, then (an incomplete key's last) an element of {@code kindOnly} when not null. */
    private static byte[] path(List<PathElement> elements, String kindOnly) throws IOException {
        return message(out -> {
            for (PathElement e : elements) {
                element(out, e, 1, 2, 3, 4);
            }
            if (kindOnly != null) {
                out.writeTag(1, WireFormat.WIRETYPE_START_GROUP);
                out.writeString(2, kindOnly);
                out.writeTag(1, WireFormat.WIRETYPE_END_GROUP);
            }
        });
    }

    /** A path element as a group: an entity key's (1: 2 kind, 3 id, 4 name) or a key value's (14: 15, 16, 17). */
    private static void element(CodedOutputStream out, PathElement e, int group, int kindField, int idField,
                                int nameField) throws IOException {
        out.writeTag(group, WireFormat.WIRETYPE_START_GROUP);
        out.writeString(kindField, e.getKind());
        if (e.hasId()) {
            out.writeInt64(idField, e.getId());
        } else {
            out.writeString(nameField, e.getName());
        }
        out.writeTag(group, WireFormat.WIRETYPE_END_GROUP);
    }

    /** The v3 meaning of a v1 value, as Google's conversion gives it (see {@link Meanings}). */
    private static int meaning(Value<?> value) {
        int v1 = EntityCodec.meaning(value);
        return switch (value.getType()) {
            case TIMESTAMP -> Meanings.GD_WHEN;
            case LAT_LNG -> v1 == Meanings.POINT_WITHOUT_V3_MEANING ? 0 : Meanings.GEORSS_POINT;
            case BLOB -> v1 == Meanings.BYTESTRING || !value.excludeFromIndexes() ? Meanings.BYTESTRING
                    : Meanings.BLOB;
            case ENTITY -> v1 == Meanings.USER ? 0 : Meanings.ENTITY_PROTO;
            default -> v1;
        };
    }

    private static byte[] emptyList(String name) throws IOException {
        return message(out -> {
            out.writeInt32(1, Meanings.EMPTY_LIST);
            out.writeString(3, name);
            out.writeBool(4, false);
            out.writeByteArray(5, new byte[0]);
        });
    }

    private static byte[] property(String name, boolean multiple, Value<?> value) throws IOException {
        int meaning = meaning(value);
        return message(out -> {
            if (meaning != 0) {
                out.writeInt32(1, meaning);
            }
            if (value.getType() == ValueType.BLOB && EntityCodec.meaning(value) == Meanings.ZLIB) {
                out.writeString(2, Meanings.ZLIB_URI);
            }
            out.writeString(3, name);
            out.writeBool(4, multiple);
            out.writeByteArray(5, value(value));
        });
    }

    private static byte[] value(Value<?> value) throws IOException {
        return message(out -> {
            switch (value.getType()) {
                case NULL -> { }
                case LONG -> out.writeInt64(1, (Long) value.get());
                case TIMESTAMP -> {
                    Timestamp t = (Timestamp) value.get();
                    out.writeInt64(1, t.getSeconds() * 1_000_000L + t.getNanos() / 1_000);
                }
                case BOOLEAN -> out.writeBool(2, (Boolean) value.get());
                case STRING -> out.writeString(3, (String) value.get());
                case BLOB -> out.writeByteArray(3, ((Blob) value.get()).toByteArray());
                case ENTITY -> {
                    if (EntityCodec.meaning(value) == Meanings.USER) {
                        UserValues.write(out, 8, (FullEntity<?>) value.get());
                    } else {
                        out.writeByteArray(3, entity((FullEntity<?>) value.get()));
                    }
                }
                case DOUBLE -> out.writeDouble(4, (Double) value.get());
                case LAT_LNG -> {
                    LatLng point = (LatLng) value.get();
                    out.writeTag(5, WireFormat.WIRETYPE_START_GROUP);
                    out.writeDouble(6, point.getLatitude());
                    out.writeDouble(7, point.getLongitude());
                    out.writeTag(5, WireFormat.WIRETYPE_END_GROUP);
                }
                case KEY -> {
                    Key key = (Key) value.get();
                    out.writeTag(12, WireFormat.WIRETYPE_START_GROUP);
                    out.writeString(13, key.getProjectId());
                    for (PathElement e : elements(key)) {
                        element(out, e, 14, 15, 16, 17);
                    }
                    if (!key.getNamespace().isEmpty()) {
                        out.writeString(20, key.getNamespace());
                    }
                    if (key.getDatabaseId() != null && !key.getDatabaseId().isEmpty()) {
                        out.writeString(23, key.getDatabaseId());
                    }
                    out.writeTag(12, WireFormat.WIRETYPE_END_GROUP);
                }
                default -> throw new IOException("a " + value.getType() + " value cannot be written to an export");
            }
        });
    }

    /** What writes one message's fields. */
    interface Body {
        void write(CodedOutputStream out) throws IOException;
    }

    /** The bytes of one message, its fields written by {@code body}. */
    static byte[] message(Body body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        body.write(out);
        out.flush();
        return bytes.toByteArray();
    }
}
