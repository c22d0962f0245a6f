package io.keyranger.model;

import com.google.datastore.v1.Value;
import com.google.protobuf.ByteString;
import io.keyranger.keys.Collation;

/**
 * Datastore's value order, for filters: values of different types order by type (null, integers and timestamps,
 * booleans, strings, doubles, keys, …); within a type, by value. Only what KeyRanger's filters need is compared exactly.
 */
final class ModelValues {
    private ModelValues() {
    }

    static int typeRank(Value v) {
        return switch (v.getValueTypeCase()) {
            case NULL_VALUE -> 0;
            case INTEGER_VALUE, TIMESTAMP_VALUE -> 1;
            case BOOLEAN_VALUE -> 2;
            case STRING_VALUE, BLOB_VALUE -> 3;
            case DOUBLE_VALUE -> 4;
            case GEO_POINT_VALUE -> 5;
            case KEY_VALUE -> 6;
            default -> 7;
        };
    }

    static int compare(Value a, Value b) {
        int c = Integer.compare(typeRank(a), typeRank(b));
        if (c != 0) {
            return c;
        }
        return switch (a.getValueTypeCase()) {
            case NULL_VALUE -> 0;
            case INTEGER_VALUE, TIMESTAMP_VALUE -> Long.compare(asLong(a), asLong(b));
            case BOOLEAN_VALUE -> Boolean.compare(a.getBooleanValue(), b.getBooleanValue());
            case STRING_VALUE, BLOB_VALUE -> a.getValueTypeCase() != b.getValueTypeCase()
                    ? Boolean.compare(a.hasBlobValue(), b.hasBlobValue())
                    : a.hasStringValue() ? Collation.UTF8.compare(a.getStringValue(), b.getStringValue())
                    : ByteString.unsignedLexicographicalComparator().compare(a.getBlobValue(), b.getBlobValue());
            case DOUBLE_VALUE -> Double.compare(a.getDoubleValue(), b.getDoubleValue());
            case KEY_VALUE -> ProtoKeyOrder.PRODUCTION.compare(a.getKeyValue(), b.getKeyValue());
            default -> a.equals(b) ? 0 : Integer.compare(a.hashCode(), b.hashCode());
        };
    }

    static long asLong(Value v) {
        if (v.getValueTypeCase() == Value.ValueTypeCase.INTEGER_VALUE) {
            return v.getIntegerValue();
        }
        return v.getTimestampValue().getSeconds() * 1_000_000L + v.getTimestampValue().getNanos() / 1_000;
    }

    /** The {@code property_representation} a {@code __property__} entity lists for a value. */
    static String representation(Value v) {
        return switch (v.getValueTypeCase()) {
            case NULL_VALUE -> "NULL";
            case INTEGER_VALUE, TIMESTAMP_VALUE -> "INT64";
            case BOOLEAN_VALUE -> "BOOLEAN";
            case STRING_VALUE, BLOB_VALUE -> "STRING";
            case DOUBLE_VALUE -> "DOUBLE";
            case GEO_POINT_VALUE -> "POINT";
            case KEY_VALUE -> "REFERENCE";
            default -> "STRING";
        };
    }
}
