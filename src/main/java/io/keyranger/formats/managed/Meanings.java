package io.keyranger.formats.managed;

/**
 * How a value's {@code meaning} reads in the two forms of an entity, as Google's own conversion between them maps it
 * (checked against the emulator's {@code :export} and {@code :import}). A v3 property has a meaning enum, plus a
 * meaning URI; v1 values keep what the value type does not say:
 * <ul>
 *   <li>a v1 string with meaning 15 (App Engine's text) or any string meaning (1-6, 8, 10-12, 17) keeps it in v3;</li>
 *   <li>a v1 blob is v3 {@code BYTESTRING} (16) when indexed and {@code BLOB} (14) when not; its meaning 22 (ndb's
 *   compressed blob) is v3's meaning URI {@code ZLIB}; meaning 16 on an unindexed blob stays 16;</li>
 *   <li>a timestamp is a v3 integer with {@code GD_WHEN} (7), a geo point a v3 point with {@code GEORSS_POINT} (9)
 *   (a point without it reads as a geo point with meaning 23), an embedded entity a v3 string with
 *   {@code ENTITY_PROTO} (19), a user (v1: an entity with meaning 20) a v3 user value, an empty array a property with
 *   {@code EMPTY_LIST} (24);</li>
 *   <li>an integer keeps 13 (a rating); a meaning the value's type cannot carry is dropped.</li>
 * </ul>
 */
final class Meanings {
    static final int GD_WHEN = 7;
    static final int GEORSS_POINT = 9;
    static final int GD_RATING = 13;
    static final int BLOB = 14;
    static final int TEXT = 15;
    static final int BYTESTRING = 16;
    static final int BLOBKEY = 17;
    static final int INDEX_VALUE = 18;
    static final int ENTITY_PROTO = 19;
    static final int USER = 20;
    static final int ZLIB = 22;
    static final int POINT_WITHOUT_V3_MEANING = 23;
    static final int EMPTY_LIST = 24;
    static final String ZLIB_URI = "ZLIB";

    private Meanings() {
    }

    /** Whether a v3 string value with this meaning (and URI) is a v1 blob. */
    static boolean isBlob(int meaning, String uri) {
        return meaning == BLOB || meaning == BYTESTRING || ZLIB_URI.equals(uri);
    }

    /** The v1 meaning of a v3 string value (0: none). */
    static int v1OfBytes(int meaning, String uri, boolean indexed, boolean utf8) {
        if (meaning == ENTITY_PROTO) {
            return 0;
        }
        if (isBlob(meaning, uri)) {
            if (ZLIB_URI.equals(uri)) {
                return ZLIB;
            }
            return meaning == BYTESTRING && !indexed ? BYTESTRING : 0;
        }
        if (!utf8) {
            return meaning == INDEX_VALUE ? INDEX_VALUE : 0;
        }
        return stringMeaning(meaning) ? meaning : 0;
    }

    /** Meanings a v3 string (and a v1 string) carries as they are. */
    static boolean stringMeaning(int meaning) {
        return meaning >= 1 && meaning <= 6 || meaning == 8 || meaning >= 10 && meaning <= 12 || meaning == TEXT
                || meaning == BLOBKEY || meaning == INDEX_VALUE;
    }
}
