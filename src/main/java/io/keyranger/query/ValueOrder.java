package io.keyranger.query;

import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueType;
import com.google.protobuf.ByteString;
import io.keyranger.keys.KeyOrder;

/**
 * Datastore's order of indexed values, on the client's value types: by type first (null; integers and timestamps;
 * booleans; byte and text strings; doubles; geo points; keys), then by value. Used to apply on the client the
 * conditions a server cannot apply beside a key range, with the answer the server's index would give.
 */
final class ValueOrder {
    private final KeyOrder keys;

    /** The order of the server whose keys are ordered by {@code keys} (its collation orders strings too). */
    ValueOrder(KeyOrder keys) {
        this.keys = keys;
    }

    static int rank(Value<?> v) {
        return switch (v.getType()) {
            case NULL -> 0;
            case LONG, TIMESTAMP -> 1;
            case BOOLEAN -> 2;
            case BLOB, STRING -> 3;
            case DOUBLE -> 4;
            case LAT_LNG -> 5;
            case KEY -> 6;
            default -> 7;
        };
    }

    /** Whether values of these types can be compared at all (lists, embedded entities and raw values cannot). */
    static boolean comparable(Value<?> v) {
        return rank(v) < 7;
    }

    int compare(Value<?> a, Value<?> b) {
        int c = Integer.compare(rank(a), rank(b));
        if (c != 0) {
            return c;
        }
        return switch (a.getType()) {
            case NULL -> 0;
            case LONG, TIMESTAMP -> Long.compare(micros(a), micros(b));
            case BOOLEAN -> Boolean.compare((Boolean) a.get(), (Boolean) b.get());
            case BLOB, STRING -> a.getType() != b.getType()
                    ? Boolean.compare(a.getType() == ValueType.STRING, b.getType() == ValueType.STRING)
                    : a.getType() == ValueType.STRING ? keys.collation().compare((String) a.get(), (String) b.get())
                    : ByteString.unsignedLexicographicalComparator().compare(
                    ByteString.copyFrom(((Blob) a.get()).toByteArray()), ByteString.copyFrom(((Blob) b.get()).toByteArray()));
            case DOUBLE -> Double.compare((Double) a.get(), (Double) b.get());
            case LAT_LNG -> {
                LatLng x = (LatLng) a.get();
                LatLng y = (LatLng) b.get();
                int lat = Double.compare(x.getLatitude(), y.getLatitude());
                yield lat != 0 ? lat : Double.compare(x.getLongitude(), y.getLongitude());
            }
            case KEY -> keys.compare((Key) a.get(), (Key) b.get());
            default -> 0;
        };
    }

    private static long micros(Value<?> v) {
        if (v.getType() == ValueType.LONG) {
            return (Long) v.get();
        }
        com.google.cloud.Timestamp t = (com.google.cloud.Timestamp) v.get();
        return t.getSeconds() * 1_000_000L + t.getNanos() / 1_000;
    }
}
