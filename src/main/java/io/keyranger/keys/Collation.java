package io.keyranger.keys;

/**
 * How a server orders strings (kinds and key names). Production Datastore orders them by UTF-8 bytes, which is code
 * point order. The legacy Datastore emulator, measured, orders them by UTF-16 code units, as Java's
 * {@code String.compareTo} does: there U+1F600 sorts before U+E000. Each collation is an order-preserving bijection
 * of Unicode scalar values onto [0, {@link #SIZE}), so strings compare as sequences of those indexes.
 */
public enum Collation {
    /** Code point order: production Firestore in Datastore mode. */
    UTF8,
    /** UTF-16 code unit order: the legacy Cloud Datastore emulator. */
    UTF16;

    /** The number of Unicode scalar values (code points minus surrogates). */
    public static final int SIZE = 0x110000 - 0x800;

    public int index(int codePoint) {
        if (codePoint < 0xD800) {
            return codePoint;
        }
        if (this == UTF8) {
            return codePoint - 0x800;
        }
        return codePoint >= 0x10000 ? codePoint - 0x10000 + 0xD800 : codePoint - 0xE000 + 0xD800 + 0x100000;
    }

    public int codePoint(int index) {
        if (index < 0xD800) {
            return index;
        }
        if (this == UTF8) {
            return index + 0x800;
        }
        return index < 0xD800 + 0x100000 ? index - 0xD800 + 0x10000 : index - 0xD800 - 0x100000 + 0xE000;
    }

    public int compare(String a, String b) {
        if (this == UTF16) {
            return a.compareTo(b);
        }
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }
}
