package io.keyranger.bench;

import io.keyranger.KeyRangerException;

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
    BEAM_KEYRANGER("beam-keyranger", "KeyRanger's splittable DoFn on Beam (DirectRunner)"),
    BEAM_DATASTOREIO_FLINK("beam-datastoreio-flink", "Beam's DatastoreIO on Flink's local mini-cluster (not exactly once)"),
    BEAM_KEYRANGER_FLINK("beam-keyranger-flink", "KeyRanger's splittable DoFn on Flink's local mini-cluster");

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
        return id.startsWith("beam-");
    }

    /** Whether it is Beam's DatastoreIO pipeline (else KeyRanger's). */
    public boolean datastoreIo() {
        return id.startsWith("beam-datastoreio");
    }

    /** The Beam runner it runs on. */
    public String beamRunner() {
        return id.endsWith("-flink") ? "FlinkRunner" : "DirectRunner";
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
        throw new KeyRangerException("Unknown strategy '" + id + "'; known: linear, offset, fixed, "
                + "adaptive-midpoint, adaptive, adaptive-no-undo, oracle, beam-datastoreio, beam-keyranger, "
                + "beam-datastoreio-flink, beam-keyranger-flink.");
    }
}
