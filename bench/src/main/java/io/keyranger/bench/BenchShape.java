package io.keyranger.bench;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import io.keyranger.KeyRangerException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * Benchmark datasets: the key shapes that decide how well a key space splits, and the cases where a plan made before
 * the job starts is wrong. Each entity starts with n = 0.
 */
public enum BenchShape {
    /** Random names, evenly spread. */
    UNIFORM("uniform"),
    /** A third dense low ids, a third ids over the whole range, a third names. */
    MIXED("mixed"),
    /** A dense block of low ids and names under a few heavily skewed prefixes. */
    SKEWED("skewed"),
    /**
     * Mixed keys, and a job over {@code hot = true} only: a tenth of the entities, the lowest dense ids, one block at
     * the start of the key space. The scatter sample covers every entity (a filter on a property and an order by
     * {@code __scatter__} need a composite index), so a plan is balanced over the kind, not over the matches.
     */
    FILTERED("filtered"),
    /**
     * Mixed keys, and while the job runs a writer adds a quarter as many again under names "grow-…", in increasing
     * order: one narrow key region, empty when the job was planned, that keeps filling up.
     */
    GROWING("growing"),
    /**
     * Mixed keys on a kind small for its worker count, so that at production's scatter rate (0.78%) each planned
     * shard gets few samples; run it at about 128 entities per worker (10,000 at 64 workers: 1.2 samples a shard).
     */
    SPARSE_SCATTER("sparse-scatter");

    /** Share of FILTERED's entities that match its filter. */
    static final int FILTERED_PERCENT = 10;
    /** GROWING's newcomers per entity at the start. */
    static final double GROWING_RATIO = 0.25;

    private final String id;

    BenchShape(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public List<Entity> entities(KeyFactory factory, int count, long seed) {
        Random random = new Random(seed);
        Set<Key> keys = new HashSet<>();
        List<Entity> out = new ArrayList<>(count);
        int dense = 0;
        long hotBelow = (long) count * FILTERED_PERCENT / 100;
        while (out.size() < count) {
            Key key = switch (this) {
                case UNIFORM -> factory.newKey(String.format("u-%08x", random.nextInt()));
                case MIXED, FILTERED, GROWING, SPARSE_SCATTER -> switch (out.size() % 3) {
                    case 0 -> factory.newKey(++dense);
                    case 1 -> factory.newKey(1_000_000L + (random.nextLong() >>> 2));
                    default -> factory.newKey(String.format("name-%08x", random.nextInt()));
                };
                case SKEWED -> out.size() % 4 == 0 ? factory.newKey(++dense)
                        : factory.newKey((random.nextInt(100) < 80 ? "user-" : random.nextBoolean() ? "acct-" : "zz-")
                        + String.format("%06x", random.nextInt(1 << 24)));
            };
            if (keys.add(key)) {
                Entity.Builder entity = Entity.newBuilder(key).set("n", 0L);
                if (this == FILTERED) {
                    entity.set("hot", key.hasId() && key.getId() <= hotBelow);
                }
                out.add(entity.build());
            }
        }
        return out;
    }

    /** The job's where clause as mapper JSON ({@code ,"where":[…]}), or "" for a job over the whole kind. */
    String whereJson() {
        return this == FILTERED ? ",\"where\":[{\"property\":\"hot\",\"value\":true}]" : "";
    }

    /** Whether the job is meant to process {@code entity} (every entity, but for FILTERED). */
    boolean selects(Entity entity) {
        return this != FILTERED || entity.getBoolean("hot");
    }

    /** Entities a writer adds while the job runs (GROWING only), in the order they are written. */
    List<Entity> newcomers(KeyFactory factory, int count) {
        if (this != GROWING) {
            return List.of();
        }
        int total = (int) Math.round(count * GROWING_RATIO);
        List<Entity> out = new ArrayList<>(total);
        for (int i = 0; i < total; i++) {
            out.add(Entity.newBuilder(factory.newKey(String.format("grow-%09d", i))).set("n", 0L).build());
        }
        return out;
    }

    /** The shape named on the command line, case-insensitively. */
    public static BenchShape of(String name) {
        for (BenchShape shape : values()) {
            if (shape.id.equalsIgnoreCase(name) || shape.name().equalsIgnoreCase(name)) {
                return shape;
            }
        }
        throw new KeyRangerException("Unknown shape '" + name + "'; known: uniform, mixed, skewed, "
                + "filtered, growing, sparse-scatter.");
    }

    @Override
    public String toString() {
        return id.toLowerCase(Locale.ROOT);
    }
}
