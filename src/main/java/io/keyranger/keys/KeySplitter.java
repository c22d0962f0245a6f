package io.keyranger.keys;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Splits a range between two keys when no sampled key lies inside it: numeric ids at their arithmetic midpoint,
 * names at the midpoint of their character sequences in the server's collation, an id/name boundary between the id and the
 * largest id, and different ancestor paths at the first element where they differ. It answers "cannot split"
 * (empty) when no key lies strictly between, so that a caller continues linearly.
 */
public final class KeySplitter {
    /** Names are compared over at most this many code points; Datastore names are at most 1,500 bytes. */
    static final int MAX_NAME_CODE_POINTS = 300;
    private static final int SCALARS = Collation.SIZE;
    private static final int MAX_SCALAR_INDEX = SCALARS - 1;

    private KeySplitter() {
    }

    /**
     * A key strictly between {@code low} and {@code high}; a null {@code high} means "no upper bound", in which
     * case the split stays within {@code low}'s kind and parent. Empty when the range cannot be split.
     */
    public static Optional<Key> midpoint(KeyOrder order, Key low, Key high) {
        if (high != null && order.compare(low, high) >= 0) {
            return Optional.empty();
        }
        List<PathElement> a = KeyPaths.path(low);
        List<PathElement> b = high == null ? null : KeyPaths.path(high);
        int i = 0;
        if (b != null) {
            while (i < a.size() && i < b.size() && order.compareElements(a.get(i), b.get(i)) == 0) {
                i++;
            }
        } else {
            i = a.size() - 1;
        }
        Optional<PathElement> middle;
        if (i >= a.size()) {
            // low is an ancestor of high: split among low's children, below high's child element.
            PathElement upper = b.get(i);
            middle = between(order.collation(), upper.getKind(), null, upper);
        } else {
            middle = between(order.collation(), a.get(i).getKind(), a.get(i), b == null ? null : b.get(i));
        }
        if (middle.isEmpty()) {
            return Optional.empty();
        }
        List<PathElement> path = new ArrayList<>(a.subList(0, Math.min(i, a.size())));
        path.add(middle.get());
        Key candidate = KeyPaths.keyOf(low, path);
        boolean inside = order.compare(low, candidate) < 0 && (high == null || order.compare(candidate, high) < 0);
        return inside ? Optional.of(candidate) : Optional.empty();
    }

    /** An element strictly between two elements (either may be null: unbounded), or empty. */
    private static Optional<PathElement> between(Collation collation, String kind, PathElement low, PathElement high) {
        if (low != null && high != null && !low.getKind().equals(high.getKind())) {
            return midpointName(collation, low.getKind(), high.getKind()).filter(k -> !k.startsWith("__"))
                    .map(k -> PathElement.of(k, 1L));
        }
        Long lowId = low == null ? Long.valueOf(0) : low.hasId() ? low.getId() : null;
        if (lowId != null) {
            long highId = high == null || !high.hasId() ? Long.MAX_VALUE : high.getId();
            long mid = lowId + (highId - lowId) / 2;
            if (mid > lowId && mid >= 1) {
                return Optional.of(PathElement.of(kind, mid));
            }
            if (high != null && high.hasName()) {
                // ids are exhausted up to the largest; names follow them
                return midpointName(collation, "", high.getName()).map(n -> PathElement.of(kind, n));
            }
            return Optional.empty();
        }
        String highName = high == null ? null : high.getName();
        return midpointName(collation, low.getName(), highName).map(n -> PathElement.of(kind, n));
    }

    /**
     * A string strictly between {@code low} and {@code high} in the collation's order (null high: unbounded), found
     * by averaging the two as fractions whose digits are the collation's indexes; empty when none exists within the
     * length limit.
     */
    static Optional<String> midpointName(Collation collation, String low, String high) {
        int[] a = indexes(collation, low);
        int[] b = high == null ? null : indexes(collation, high);
        int length = Math.min(MAX_NAME_CODE_POINTS, Math.max(a.length, b == null ? 0 : b.length) + 1);
        int[] sum = new int[length + 1];
        // sum = a + b as base-SCALARS fractions; the unbounded high is 0.999... (all max digits)
        int carry = 0;
        for (int i = length - 1; i >= 0; i--) {
            int da = i < a.length ? a[i] : 0;
            int db = b == null ? MAX_SCALAR_INDEX : i < b.length ? b[i] : 0;
            int s = da + db + carry;
            sum[i + 1] = s % SCALARS;
            carry = s / SCALARS;
        }
        sum[0] = carry;
        // halve: the integer part (sum[0]) is 0 or 1
        int[] mid = new int[length];
        int remainder = sum[0];
        for (int i = 1; i <= length; i++) {
            long value = (long) remainder * SCALARS + sum[i];
            mid[i - 1] = (int) (value / 2);
            remainder = (int) (value % 2);
        }
        int end = length;
        while (end > 0 && mid[end - 1] == 0) {
            end--;
        }
        String candidate = fromIndexes(collation, mid, end);
        boolean inside = !candidate.isEmpty() && collation.compare(low, candidate) < 0
                && (high == null || collation.compare(candidate, high) < 0);
        return inside ? Optional.of(candidate) : Optional.empty();
    }

    private static int[] indexes(Collation collation, String s) {
        return s.codePoints().limit(MAX_NAME_CODE_POINTS).map(collation::index).toArray();
    }

    private static String fromIndexes(Collation collation, int[] digits, int length) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < length; i++) {
            out.appendCodePoint(collation.codePoint(digits[i]));
        }
        return out.toString();
    }
}
