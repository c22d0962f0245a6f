package io.keyranger.bench;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/** Benchmark datasets: the key shapes that decide how well a key space splits. Each entity starts with n = 0. */
public enum BenchShape {
    /** Random names, evenly spread. */
    UNIFORM,
    /** A third dense low ids, a third ids over the whole range, a third names. */
    MIXED,
    /** A dense block of low ids and names under a few heavily skewed prefixes. */
    SKEWED;

    public List<Entity> entities(KeyFactory factory, int count, long seed) {
        Random random = new Random(seed);
        Set<Key> keys = new HashSet<>();
        List<Entity> out = new ArrayList<>(count);
        int dense = 0;
        while (out.size() < count) {
            Key key = switch (this) {
                case UNIFORM -> factory.newKey(String.format("u-%08x", random.nextInt()));
                case MIXED -> switch (out.size() % 3) {
                    case 0 -> factory.newKey(++dense);
                    case 1 -> factory.newKey(1_000_000L + (random.nextLong() >>> 2));
                    default -> factory.newKey(String.format("name-%08x", random.nextInt()));
                };
                case SKEWED -> out.size() % 4 == 0 ? factory.newKey(++dense)
                        : factory.newKey((random.nextInt(100) < 80 ? "user-" : random.nextBoolean() ? "acct-" : "zz-")
                        + String.format("%06x", random.nextInt(1 << 24)));
            };
            if (keys.add(key)) {
                out.add(Entity.newBuilder(key).set("n", 0L).build());
            }
        }
        return out;
    }

    /** The shape named on the command line, case-insensitively. */
    public static BenchShape of(String name) {
        for (BenchShape shape : values()) {
            if (shape.name().equalsIgnoreCase(name)) {
                return shape;
            }
        }
        throw new io.keyranger.KeyRangerException("Unknown shape '" + name + "'; known: uniform, mixed, skewed.");
    }
}
