package io.keyranger.beam;

import com.google.cloud.datastore.Key;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;

/**
 * A key range as Beam moves it between workers: the server's key order, then start (url-safe, "" when open), whether
 * the start is inclusive, and end. Deterministic: equal ranges encode to equal bytes.
 */
public final class KeyRangeCoder extends AtomicCoder<KeyRange> {
    private static final KeyRangeCoder INSTANCE = new KeyRangeCoder();
    private static final StringUtf8Coder STRING = StringUtf8Coder.of();
    private static final BooleanCoder BOOLEAN = BooleanCoder.of();

    public static KeyRangeCoder of() {
        return INSTANCE;
    }

    private KeyRangeCoder() {
    }

    @Override
    public void encode(KeyRange range, OutputStream out) throws IOException {
        STRING.encode(range.order() == KeyOrder.EMULATOR ? "emulator" : "production", out);
        STRING.encode(range.start() == null ? "" : range.start().toUrlSafe(), out);
        BOOLEAN.encode(range.startInclusive(), out);
        STRING.encode(range.end() == null ? "" : range.end().toUrlSafe(), out);
    }

    @Override
    public KeyRange decode(InputStream in) throws IOException {
        KeyOrder order = STRING.decode(in).equals("emulator") ? KeyOrder.EMULATOR : KeyOrder.PRODUCTION;
        Key start = key(STRING.decode(in));
        boolean inclusive = BOOLEAN.decode(in);
        Key end = key(STRING.decode(in));
        if (start == null || inclusive) {
            return KeyRange.of(order, start, end);
        }
        return KeyRange.of(order, null, end).advancePast(start);
    }

    @Override
    public void verifyDeterministic() {
    }

    private static Key key(String urlSafe) {
        return urlSafe.isEmpty() ? null : Key.fromUrlSafe(urlSafe);
    }
}
