package io.keyranger.bench;

/** The ways of running the same job that the benchmark compares. */
public enum BenchStrategy {
    LINEAR("linear", "one cursor-paged loop"),
    OFFSET("offset", "limit/offset pages (quadratic; capped and extrapolated)"),
    FIXED("fixed", "k scatter-planned shards, each processed linearly"),
    ADAPTIVE_MIDPOINT("adaptive-midpoint", "adaptive splitting at key midpoints"),
    ADAPTIVE("adaptive", "KeyRanger's executor as shipped (with undo records)"),
    ADAPTIVE_NO_UNDO("adaptive-no-undo", "KeyRanger's executor without undo records (run --no-undo)"),
    ORACLE("oracle", "the full key list known in advance, cut into equal chunks"),
    BEAM_DATASTOREIO("beam-datastoreio", "Beam's DatastoreIO read, increment, write (DirectRunner; not exactly once)"),
    BEAM_KEYRANGER("beam-keyranger", "KeyRanger's splittable DoFn on Beam (DirectRunner)");

    private final String id;
    private final String description;

    BenchStrategy(String id, String description) {
        this.id = id;
        this.description = description;
    }

    public String id() {
        return id;
    }

    /** Whether it runs as a Beam pipeline (keyranger-beam.jar in a JVM of its own). */
    public boolean beam() {
        return this == BEAM_DATASTOREIO || this == BEAM_KEYRANGER;
    }

    public String description() {
        return description;
    }

    public static BenchStrategy of(String id) {
        for (BenchStrategy s : values()) {
            if (s.id.equals(id)) {
                return s;
            }
        }
        throw new io.keyranger.KeyRangerException("Unknown strategy '" + id + "'; known: linear, offset, fixed, "
                + "adaptive-midpoint, adaptive, adaptive-no-undo, oracle, beam-datastoreio, beam-keyranger.");
    }
}
