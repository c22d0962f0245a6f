package io.keyranger.mapper.cel;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import com.google.common.primitives.UnsignedLong;
import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import dev.cel.common.types.CelType;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.TypeValue;
import io.keyranger.keys.KeyFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Datastore values as CEL sees them, and back. Integers are CEL {@code int}, doubles {@code double}, strings
 * {@code string}, booleans {@code bool}, timestamps {@code google.protobuf.Timestamp}, blobs {@code bytes}, lists
 * {@code list}, null {@code null}; an embedded entity is a map of its properties, a key a map
 * {@code {kind, id, name, namespace, path, parent}} (the absent one of id and name is null, parent is null at the
 * root, path reads like {@code Org:"o1" > Account:5}), a geo point {@code {latitude, longitude}}. Results convert back
 * the same way; a key or geo point returned unchanged stays what it was. Values Datastore cannot store (a
 * non-finite double, a list in a list, a duration, a map with non-string keys) are an {@link ExpressionFailure}.
 */
public final class CelValues {
    private CelValues() {
    }

    /** The CEL value of a Datastore value. */
    public static Object toCel(Value<?> value) {
        return switch (value.getType()) {
            case NULL -> com.google.protobuf.NullValue.NULL_VALUE;
            case STRING, LONG, DOUBLE, BOOLEAN -> value.get();
            case TIMESTAMP -> ((Timestamp) value.get()).toProto();
            case BLOB -> ByteString.copyFrom(((Blob) value.get()).toByteArray());
            case KEY -> keyMap((Key) value.get(), value);
            case LIST -> {
                List<Object> items = new ArrayList<>();
                for (Value<?> item : ((ListValue) value).get()) {
                    items.add(toCel(item));
                }
                yield Collections.unmodifiableList(items);
            }
            case ENTITY -> entityMap(((EntityValue) value).get(), value);
            case LAT_LNG -> {
                LatLng point = (LatLng) value.get();
                Map<String, Object> fields = new LinkedHashMap<>();
                fields.put("latitude", point.getLatitude());
                fields.put("longitude", point.getLongitude());
                yield new ValueMap(fields, value);
            }
            case RAW_VALUE -> value.toString();
        };
    }

    /** An entity's key as an expression sees it ({@code key}). */
    public static Map<String, Object> keyMap(Key key) {
        return keyMap(key, KeyValue.of(key));
    }

    private static Map<String, Object> keyMap(Key key, Value<?> original) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("kind", key.getKind());
        fields.put("id", key.hasId() ? key.getId() : com.google.protobuf.NullValue.NULL_VALUE);
        fields.put("name", key.hasName() ? key.getName() : com.google.protobuf.NullValue.NULL_VALUE);
        fields.put("namespace", key.getNamespace());
        fields.put("path", KeyFormat.format(key));
        Key parent = key.getParent();
        fields.put("parent", parent == null ? com.google.protobuf.NullValue.NULL_VALUE : keyMap(parent));
        return new ValueMap(fields, original);
    }

    /** The properties of an entity (or embedded entity) as a map, by name. */
    static Map<String, Object> entityMap(FullEntity<?> entity, Value<?> original) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (String name : entity.getNames()) {
            fields.put(name, toCel(entity.getValue(name)));
        }
        return new ValueMap(fields, original);
    }

    /** The Datastore value of an expression's result, indexed; an {@link ExpressionFailure} if it cannot be stored. */
    public static Value<?> toDatastore(Object result) throws ExpressionFailure {
        return toDatastore(result, false);
    }

    private static Value<?> toDatastore(Object result, boolean inList) throws ExpressionFailure {
        if (result == null || result instanceof com.google.protobuf.NullValue) {
            return NullValue.of();
        }
        if (result instanceof ValueMap map && map.original() != null) {
            return map.original();
        }
        if (result instanceof Long l) {
            return LongValue.of(l);
        }
        if (result instanceof Integer i) {
            return LongValue.of(i);
        }
        if (result instanceof UnsignedLong u) {
            if (u.compareTo(UnsignedLong.valueOf(Long.MAX_VALUE)) > 0) {
                throw new ExpressionFailure("overflow", "the unsigned result " + u + " is too large for an integer");
            }
            return LongValue.of(u.longValue());
        }
        if (result instanceof Double d) {
            if (!Double.isFinite(d)) {
                throw new ExpressionFailure("not a finite number", "the result is " + d
                        + ", which Datastore does not store from a transform");
            }
            return DoubleValue.of(d);
        }
        if (result instanceof Boolean b) {
            return BooleanValue.of(b);
        }
        if (result instanceof String s) {
            return StringValue.of(s);
        }
        if (result instanceof com.google.protobuf.Timestamp t) {
            return TimestampValue.of(Timestamp.fromProto(t));
        }
        if (result instanceof ByteString bytes) {
            return BlobValue.of(Blob.copyFrom(bytes.toByteArray()));
        }
        if (result instanceof CelByteString bytes) {
            return BlobValue.of(Blob.copyFrom(bytes.toByteArray()));
        }
        if (result instanceof List<?> list) {
            if (inList) {
                throw new ExpressionFailure("cannot store", "Datastore cannot store a list inside a list");
            }
            List<Value<?>> items = new ArrayList<>(list.size());
            for (Object item : list) {
                items.add(toDatastore(item, true));
            }
            return ListValue.of(items);
        }
        if (result instanceof Map<?, ?> map) {
            FullEntity.Builder<IncompleteKey> embedded = FullEntity.newBuilder();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!(entry.getKey() instanceof String name)) {
                    throw new ExpressionFailure("cannot store", "a map stored as an embedded entity needs string keys "
                            + "(got " + entry.getKey() + ")");
                }
                embedded.set(name, toDatastore(entry.getValue(), false));
            }
            return EntityValue.of(embedded.build());
        }
        throw new ExpressionFailure("cannot store", "Datastore cannot store a " + celTypeName(result));
    }

    private static String celTypeName(Object result) {
        if (result instanceof Duration) {
            return "duration";
        }
        if (result instanceof CelType || result instanceof TypeValue) {
            return "type";
        }
        return result.getClass().getSimpleName();
    }
}
