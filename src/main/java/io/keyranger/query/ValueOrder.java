package io.keyranger.query;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueType;
import com.google.protobuf.ByteString;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyPaths;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;

/**
 * Datastore's order of indexed values, on the client's value types, as the Cloud Datastore emulator's index answers
 * inequality queries (every type against every other, with every operator, is checked against the emulator's own
 * queries in {@code GqlEmulatorTest}):
 * <ol>
 *   <li>null (and, on the legacy emulator only, an empty array, which it indexes as one null: see
 *       {@link #indexesEmptyArrayAsNull});</li>
 *   <li>integers and timestamps together, a timestamp as its microseconds since the epoch, so
 *       {@code DATETIME('1970-01-01T00:00:00.000001Z')} equals 1;</li>
 *   <li>booleans, false before true;</li>
 *   <li>byte strings and text strings together, compared as unsigned bytes (a text string as its UTF-8 bytes), so the
 *       blob {@code zz} is after the string {@code 'a'} and the blob {@code a} equals it;</li>
 *   <li>doubles, numerically, with -0.0 before 0.0 and NaN (equal to itself) after +Infinity;</li>
 *   <li>geo points, by latitude, then longitude;</li>
 *   <li>keys, by project, namespace, then path element by element, in the key order of the server.</li>
 * </ol>
 * Embedded entities, and values a client cannot type, are in no index order: no inequality selects them.
 *
 * <p>Google documents this type order for Datastore (the App Engine entity property reference: null, fixed-point
 * numbers (integers, dates and times), booleans, byte sequences (short byte strings and Unicode strings, one group),
 * doubles, geo points, keys). Where production may differ from the emulators, and nothing here can check it: strings
 * against strings (by UTF-8 bytes on both, unlike key names on the legacy emulator, see {@link KeyOrder}), and
 * production's own
 * {@code !=} and {@code NOT IN} (KeyRanger decides them as {@code < v OR > v} and "a value outside the list", as the
 * emulator's index answers them). The README's "GQL as a job's input" says so to users.
 */
final class ValueOrder {
    private static final Comparator<ByteString> BYTES = ByteString.unsignedLexicographicalComparator();

    private final KeyOrder keys;

    /** The order of the server whose keys are ordered by {@code keys}. */
    ValueOrder(KeyOrder keys) {
        this.keys = keys;
    }

    /**
     * Whether an empty array has an index entry, as null: on the legacy emulator (the one server that orders keys in
     * UTF-16) it has; the Firestore emulator in Datastore mode gives it no entry ({@code p = NULL} and {@code p < 1}
     * leave it out, measured in {@code GqlEmulatorTest}), nor does production, which documents no index entry for an
     * empty array.
     */
    boolean indexesEmptyArrayAsNull() {
        return keys == KeyOrder.EMULATOR;
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
            case BLOB, STRING -> BYTES.compare(bytes(a), bytes(b));
            case DOUBLE -> Double.compare((Double) a.get(), (Double) b.get());
            case LAT_LNG -> {
                LatLng x = (LatLng) a.get();
                LatLng y = (LatLng) b.get();
                int lat = Double.compare(x.getLatitude(), y.getLatitude());
                yield lat != 0 ? lat : Double.compare(x.getLongitude(), y.getLongitude());
            }
            case KEY -> compareKeys((Key) a.get(), (Key) b.get());
            default -> 0;
        };
    }


    private static ByteString bytes(Value<?> v) {
        return v.getType() == ValueType.STRING ? ByteString.copyFrom((String) v.get(), StandardCharsets.UTF_8)
                : ByteString.copyFrom(((Blob) v.get()).toByteArray());
    }

    /** Keys of any partition: project, database, namespace, then the path (a key before its descendants). */
    private int compareKeys(Key a, Key b) {
        int c = keys.collation().compare(a.getProjectId(), b.getProjectId());
        if (c == 0) {
            c = keys.collation().compare(a.getDatabaseId() == null ? "" : a.getDatabaseId(),
                    b.getDatabaseId() == null ? "" : b.getDatabaseId());
        }
        if (c == 0) {
            c = keys.collation().compare(a.getNamespace(), b.getNamespace());
        }
        if (c != 0) {
            return c;
        }
        List<PathElement> pa = KeyPaths.path(a);
        List<PathElement> pb = KeyPaths.path(b);
        for (int i = 0; i < Math.min(pa.size(), pb.size()); i++) {
            c = keys.compareElements(pa.get(i), pb.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(pa.size(), pb.size());
    }

    private static long micros(Value<?> v) {
        if (v.getType() == ValueType.LONG) {
            return (Long) v.get();
        }
        Timestamp t = (Timestamp) v.get();
        return t.getSeconds() * 1_000_000L + t.getNanos() / 1_000;
    }
}
