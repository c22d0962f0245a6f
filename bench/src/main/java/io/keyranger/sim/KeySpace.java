package io.keyranger.sim;

import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * A synthetic kind of up to billions of entities, in production's key order, that holds no key: key i is computed from
 * its segment, and the rank of any key is found by binary search. The shapes are the bench's ({@code BenchShape}), laid
 * out evenly instead of at random: a third dense low ids, a third ids spread over 2^62, a third names
 * {@code name-xxxxxxxx}. A job may select a prefix of the kind (the bench's {@code filtered} shape: the lowest tenth,
 * dense ids); about 0.78% of keys carry {@code __scatter__}, as in production.
 */
public final class KeySpace {
    /** Keys in 10,000 that carry {@code __scatter__} (production's 0.78%, as the model has it). */
    public static final int SCATTER_PER_10K = 78;
    private static final String PROJECT = "sim";
    private static final String KIND = "Sim";
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** The bench shapes the simulation knows. */
    public enum Shape {
        MIXED, FILTERED, SPARSE_SCATTER;

        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        public static Shape of(String id) {
            for (Shape s : values()) {
                if (s.id().equalsIgnoreCase(id)) {
                    return s;
                }
            }
            throw new KeyRangerException("Unknown shape '" + id + "' for the simulation; known: mixed, "
                    + "filtered, sparse-scatter.");
        }
    }

    private final Shape shape;
    private final long dense;
    private final long spread;
    private final long named;
    private final long spreadBase;
    private final long spreadStep;
    private final long nameStep;
    private final long selected;

    private KeySpace(Shape shape, long entities) {
        if (entities < 3 || entities > 12_000_000_000L) {
            throw new KeyRangerException("The simulation takes 3 to 12,000,000,000 entities, not "
                    + entities + ".");
        }
        this.shape = shape;
        this.dense = (entities + 2) / 3;
        this.spread = (entities + 1) / 3;
        this.named = entities / 3;
        this.spreadBase = Math.max(1_000_000L, dense + 1);
        this.spreadStep = (Long.MAX_VALUE / 2) / spread;
        this.nameStep = (1L << 32) / named;
        this.selected = shape == Shape.FILTERED ? entities / 10 : entities;
    }

    public static KeySpace of(Shape shape, long entities) {
        return new KeySpace(shape, entities);
    }

    public Shape shape() {
        return shape;
    }

    /** Entities in the kind. */
    public long size() {
        return dense + spread + named;
    }

    /** Entities the job selects: a prefix of the kind in key order (all of it but for {@code filtered}). */
    public long selected() {
        return selected;
    }

    /** The i-th key in key order. */
    public Key key(long i) {
        if (i < dense) {
            return Key.newBuilder(PROJECT, KIND, 1 + i).build();
        }
        i -= dense;
        if (i < spread) {
            return Key.newBuilder(PROJECT, KIND, spreadBase + i * spreadStep + spreadStep / 2).build();
        }
        i -= spread;
        long value = i * nameStep + nameStep / 2;
        char[] name = {'n', 'a', 'm', 'e', '-', '0', '0', '0', '0', '0', '0', '0', '0'};
        for (int d = 12; d >= 5; d--) {
            name[d] = HEX[(int) (value & 15)];
            value >>>= 4;
        }
        return Key.newBuilder(PROJECT, KIND, new String(name)).build();
    }

    /** The number of keys before {@code key}: the index of the first key at or after it. */
    public long lowerBound(Key key) {
        long lo = 0;
        long hi = size();
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (KeyOrder.PRODUCTION.compare(key(mid), key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The index of the first key of {@code range}. */
    public long startIndex(KeyRange range) {
        if (range.start() == null) {
            return 0;
        }
        long i = lowerBound(range.start());
        return !range.startInclusive() && i < size() && key(i).equals(range.start()) ? i + 1 : i;
    }

    /** The index past the last key of {@code range} the job selects. */
    public long endIndex(KeyRange range) {
        return Math.min(selected, range.end() == null ? size() : lowerBound(range.end()));
    }

    /** The job's keys as a list that computes each one asked for (an exact plan cuts it at a few indices). */
    public List<Key> selectedKeys() {
        return new AbstractList<>() {
            @Override
            public Key get(int index) {
                return key(index);
            }

            @Override
            public int size() {
                return (int) Math.min(Integer.MAX_VALUE, selected);
            }
        };
    }

    /** Keys that carry {@code __scatter__}. */
    public long scatterKeys() {
        return size() * SCATTER_PER_10K / 10_000;
    }

    /**
     * What a scatter query with {@code limit} returns: that many keys (fewer when fewer carry {@code __scatter__}) chosen
     * at random over the whole kind, sorted in key order, as the planner sorts them.
     */
    public List<Key> scatterSample(int limit, SplittableRandom random) {
        int count = (int) Math.min(limit, scatterKeys());
        TreeSet<Long> picked = new TreeSet<>();
        while (picked.size() < count) {
            picked.add(random.nextLong(size()));
        }
        List<Key> keys = new ArrayList<>(count);
        picked.forEach(i -> keys.add(key(i)));
        return keys;
    }
}
