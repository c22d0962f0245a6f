package io.keyranger.bench;

/**
 * What one run cost besides its time: the figures issue 48's targets are set on (undo at a few percent of the writes,
 * a revert about as fast as its job, a pipeline about as lean in CPU as the local client).
 *
 * @param writesBilled entity writes the job paid for (entities written and undo records kept), -1 when not known (a
 *                     Beam pipeline)
 * @param undoRecords  of those, undo records, -1 when not known
 * @param calls        calls to the server while the job ran: the model's own count on the model, else the client's
 *                     reads and commits
 * @param cpuNanos     CPU of the JVM that ran the job: for a local strategy the bench's own JVM over the job alone
 *                     (the model runs in a JVM of its own), for a pipeline its JVM's whole run as its where-the-time-
 *                     went line says; -1 when not measured
 * @param revert       the revert of the job (bench --revert), or null
 */
public record RunCosts(long writesBilled, long undoRecords, long calls, long cpuNanos, Revert revert) {
    public static final RunCosts NONE = new RunCosts(-1, -1, -1, -1, null);

    /**
     * The product's revert of a job, run after it with the same workers and page size.
     *
     * @param wallMillis   its wall time
     * @param writesBilled the entity writes it paid for (it keeps undo of its own: a revert can be reverted)
     * @param calls        calls to the server while it ran, counted as the job's
     * @param verified     it ended done and every entity of the kind reads back as it was seeded, entity for entity
     */
    public record Revert(long wallMillis, long writesBilled, long calls, boolean verified) {
    }

    /** CPU per entity in milliseconds, NaN when not measured. */
    public double cpuMillisPerEntity(long entities) {
        return cpuNanos < 0 || entities <= 0 ? Double.NaN : cpuNanos / 1e6 / entities;
    }
}
