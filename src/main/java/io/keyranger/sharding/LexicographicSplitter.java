package io.keyranger.sharding;

import com.google.cloud.datastore.Key;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeySplitter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The naive plan that KeyRanger is compared with: split the key space between the first and the last key by
 * repeated midpoints, ignoring where the data is. On mixed ids and names or skewed prefixes it is badly unbalanced.
 */
final class LexicographicSplitter {
    private LexicographicSplitter() {
    }

    /** Up to k-1 boundaries between {@code first} and {@code last}, in key order. */
    static List<Key> bounds(KeyOrder order, Key first, Key last, int shards) {
        if (shards <= 1 || order.compare(first, last) >= 0) {
            return List.of();
        }
        int depth = 32 - Integer.numberOfLeadingZeros(shards - 1); // 2^depth >= shards
        List<Key> points = new ArrayList<>();
        bisect(order, first, last, depth, points);
        int pieces = points.size() + 1;
        List<Key> bounds = new ArrayList<>();
        for (int j = 1; j < shards; j++) {
            int index = (int) Math.round((double) j * pieces / shards) - 1;
            if (index >= 0 && index < points.size()) {
                Key point = points.get(index);
                if (bounds.isEmpty() || order.compare(bounds.get(bounds.size() - 1), point) < 0) {
                    bounds.add(point);
                }
            }
        }
        return bounds;
    }

    private static void bisect(KeyOrder order, Key low, Key high, int depth, List<Key> out) {
        if (depth == 0) {
            return;
        }
        Optional<Key> mid = KeySplitter.midpoint(order, low, high);
        if (mid.isEmpty()) {
            return;
        }
        bisect(order, low, mid.get(), depth - 1, out);
        out.add(mid.get());
        bisect(order, mid.get(), high, depth - 1, out);
    }
}
