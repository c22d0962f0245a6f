package io.keyranger.formats.managed;

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
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueBuilder;
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
 * entities the v1 API carries, as Google's own v3-to-v1 conversion reads them: every value type, arrays (repeated
 * properties marked multiple, an empty one by its meaning), embedded entities with their keys (complete or not),
 * unindexed properties (the raw ones), and each value's meaning (see {@link Meanings}). An entity's own key is placed
 * in the connected project and database; a key value and an embedded entity's key keep the project (the export's app
 * id), namespace and database the export holds (a restore places them as Google's import does:
 * {@link io.keyranger.datastore.ImportPlacement}). Unknown fields are skipped.
 */
public final class EntityProtos {
    // EntityProto
    private static final int KEY = 13;
    private static final int PROPERTY = 14;
    private static final int RAW_PROPERTY = 15;
    // Property
    private static final int MEANING = 1;
    private static final int MEANING_URI = 2;
    private static final int NAME = 3;
    private static final int MULTIPLE = 4;
    private static final int VALUE = 5;

    private final String projectId;
    private final String databaseId;

    /** An entity's own key is placed in {@code projectId}/{@code databaseId} (an export's app id is the source's). */
    public EntityProtos(String projectId, String databaseId) {
        this.projectId = projectId;
        this.databaseId = databaseId == null ? "" : databaseId;
    }

    /** One exported entity; a malformed one is an {@link IOException} saying what is wrong. */
    public Entity entity(byte[] bytes) throws IOException {
        FullEntity<?> read = read(CodedInputStream.newInstance(bytes), true);
        if (!(read.getKey() instanceof Key key)) {
            throw new IOException("an exported entity has no complete key");
        }
        return Entity.newBuilder(key, read).build();
    }

    private FullEntity<?> read(CodedInputStream in, boolean top) throws IOException {
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
                key = References.entityKey(in.readBytes(), top ? projectId : null, top ? databaseId : null);
            } else if ((field == PROPERTY || field == RAW_PROPERTY)
                    && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                property(CodedInputStream.newInstance(in.readBytes().toByteArray()), field == RAW_PROPERTY, values,
                        lists);
            } else {
                in.skipField(tag);
            }
        }
        FullEntity.Builder<IncompleteKey> b = key == null ? FullEntity.newBuilder() : FullEntity.newBuilder(key);
        values.forEach((name, list) -> b.set(name, lists.get(name) ? ListValue.of(list) : list.get(0)));
        return b.build();
    }

    private void property(CodedInputStream in, boolean unindexed, Map<String, List<Value<?>>> values,
                          Map<String, Boolean> lists) throws IOException {
        int meaning = 0;
        String uri = null;
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
                case MEANING_URI -> uri = in.readStringRequireUtf8();
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
        lists.merge(name, multiple || meaning == Meanings.EMPTY_LIST, Boolean::logicalOr);
        if (meaning == Meanings.EMPTY_LIST) {
            return;
        }
        list.add(value(CodedInputStream.newInstance(value.toByteArray()), meaning, uri, unindexed));
    }

    /** One value, with the v1 meaning Google's conversion gives it for its v3 meaning (and meaning URI). */
    private Value<?> value(CodedInputStream in, int meaning, String uri, boolean unindexed) throws IOException {
        ValueBuilder<?, ?, ?> plain = null;
        int kept = 0;
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> {
                    long n = in.readInt64();
                    plain = meaning == Meanings.GD_WHEN ? TimestampValue.newBuilder(Timestamp.ofTimeMicroseconds(n))
                            : LongValue.newBuilder(n);
                    kept = meaning == Meanings.GD_RATING ? meaning : 0;
                }
                case 2 -> plain = BooleanValue.newBuilder(in.readBool());
                case 3 -> {
                    ByteString bytes = in.readBytes();
                    plain = bytes(bytes, meaning, uri);
                    kept = Meanings.v1OfBytes(meaning, uri, !unindexed, bytes.isValidUtf8());
                }
                case 4 -> plain = DoubleValue.newBuilder(in.readDouble());
                case 5 -> {
                    plain = LatLngValue.newBuilder(point(in));
                    kept = meaning == Meanings.GEORSS_POINT ? 0 : Meanings.POINT_WITHOUT_V3_MEANING;
                }
                case 8 -> {
                    plain = EntityValue.newBuilder(UserValues.read(in));
                    kept = Meanings.USER;
                }
                case 12 -> plain = KeyValue.newBuilder(References.keyValue(in));
                default -> in.skipField(tag);
            }
        }
        if (plain == null) {
            plain = NullValue.newBuilder();
        }
        if (kept != 0) {
            setMeaning(plain, kept);
        }
        return plain.setExcludeFromIndexes(unindexed).build();
    }

    @SuppressWarnings("deprecation") // meaning: deprecated in the client, kept by Datastore and by App Engine apps
    private static void setMeaning(ValueBuilder<?, ?, ?> builder, int meaning) {
        builder.setMeaning(meaning);
    }

    private ValueBuilder<?, ?, ?> bytes(ByteString bytes, int meaning, String uri) throws IOException {
        if (meaning == Meanings.ENTITY_PROTO) {
            return EntityValue.newBuilder(read(CodedInputStream.newInstance(bytes.toByteArray()), false));
        }
        if (Meanings.isBlob(meaning, uri) || !bytes.isValidUtf8()) {
            return BlobValue.newBuilder(Blob.copyFrom(bytes.toByteArray()));
        }
        return StringValue.newBuilder(bytes.toStringUtf8());
    }

    private static LatLng point(CodedInputStream in) throws IOException {
        double lat = 0;
        double lng = 0;
        while (true) {
            int tag = in.readTag();
            if (tag == 0 || WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_END_GROUP) {
                break;
            }
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 6 -> lat = in.readDouble();
                case 7 -> lng = in.readDouble();
                default -> in.skipField(tag);
            }
        }
        return LatLng.of(lat, lng);
    }
}
