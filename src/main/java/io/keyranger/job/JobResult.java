package io.keyranger.job;

import java.nio.file.Path;
import java.util.Map;

/**
 * How a job ended.
 *
 * @param jobId      the job
 * @param status     DONE, FAILED (some ranges failed) or CANCELLED
 * @param totals     the persisted sharded-counter totals: read, written, deleted, skipped, failed and the mapper's
 * @param ranges     how many range nodes the tree has
 * @param maxDepth   the deepest node
 * @param wallMillis wall time of this run
 * @param failedRanges how many ranges failed
 * @param message    what the user should know about the end, or null (e.g. who took the job over)
 * @param report     failed ranges and skipped entities by reason
 * @param output     what this run of an export wrote (its file, or its managed export's folder), or null
 */
public record JobResult(String jobId, JobStatus status, Map<String, Long> totals, int ranges, int maxDepth,
                        long wallMillis, int failedRanges, String message, JobReport report,
                        Path output) {
    public JobResult {
        totals = Map.copyOf(totals);
        report = report == null ? JobReport.EMPTY : report;
    }

    public JobResult(String jobId, JobStatus status, Map<String, Long> totals, int ranges, int maxDepth,
                     long wallMillis, int failedRanges, String message, JobReport report) {
        this(jobId, status, totals, ranges, maxDepth, wallMillis, failedRanges, message, report, null);
    }

    public JobResult(String jobId, JobStatus status, Map<String, Long> totals, int ranges, int maxDepth,
                     long wallMillis, int failedRanges, String message) {
        this(jobId, status, totals, ranges, maxDepth, wallMillis, failedRanges, message, JobReport.EMPTY);
    }

    public JobResult(String jobId, JobStatus status, Map<String, Long> totals, int ranges, int maxDepth,
                     long wallMillis, int failedRanges) {
        this(jobId, status, totals, ranges, maxDepth, wallMillis, failedRanges, null);
    }

    public long total(String field) {
        return totals.getOrDefault(field, 0L);
    }

    /**
     * The counter of undo record entities a job's commits wrote (one write each): one per commit for a job that
     * batches its before-images, one per changed entity otherwise.
     */
    public static final String UNDO_RECORDS = "undo records";
    /** The counter of before-images a job's undo records keep: one per entity changed, exactly once. */
    public static final String UNDO_IMAGES = "undo images";

    /**
     * The counter of reads a restore from the past makes at its past moments (its lookups there, and the keys its
     * queries there answer), besides its live read of each key ({@code read}).
     */
    public static final String PAST_READS = "reads of the past";
    /** The counter of a copy's reads in its source database (a lookup a key, and the keys its queries answer). */
    public static final String SOURCE_READS = "reads of the source";

    /** The reads a job paid for: the entities it read live and, restoring from the past, its reads there. */
    public long readsBilled() {
        return total("read") + total(PAST_READS) + total(SOURCE_READS);
    }

    /** The writes a job paid for: the entities it wrote and the undo records it kept. */
    public long writesBilled() {
        return total("written") + total(UNDO_RECORDS);
    }
}
