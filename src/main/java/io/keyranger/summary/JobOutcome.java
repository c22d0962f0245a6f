package io.keyranger.summary;

import io.keyranger.executor.cells.Chunker;
import io.keyranger.executor.cells.UndoKeeper;
import io.keyranger.job.JobReport;
import io.keyranger.job.PastRestore;
import io.keyranger.job.RestoreMode;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobStatus;
import io.keyranger.mapper.Mappers;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * How a job ended, as every summary shows it (the command line's summary and {@code --report}, the Run tab): its
 * status in words, persisted totals, ranges, elapsed time (the run's own wall clock, the one figure for it), problems
 * and operations. Printers only lay these out.
 *
 * @param jobId        the job
 * @param status       how it ended
 * @param totals       the persisted counters
 * @param ranges       range nodes in its tree
 * @param maxDepth     the deepest node
 * @param elapsedMillis the run's wall time
 * @param failedRanges ranges that failed
 * @param message      what the user should know about the end, or null
 * @param report       failed ranges and skipped entities by reason
 * @param operations   the operations it was billed for
 */
public record JobOutcome(String jobId, JobStatus status, Map<String, Long> totals, int ranges, int maxDepth,
                         long elapsedMillis, int failedRanges, String message, JobReport report,
                         Operations operations) {
    /**
     * The reasons a job leaves an entity it names unwritten because no commit could hold it or Datastore would refuse
     * it: the job is done, but not everything it names. Others are what the job was asked to leave alone (changed
     * since, superseded by a later line, of another kind, an input line that is not an entity with
     * {@code --skip-bad-lines}).
     */
    private static final Set<String> NOT_WRITTEN = Stream.concat(Mappers.unwritableReasons().stream(),
                    Stream.of(UndoKeeper.TOO_LARGE, Chunker.OVER_REQUEST))
            .map(reason -> JobReport.SKIPPED_PREFIX + reason).collect(Collectors.toUnmodifiableSet());

    /** The counters every job has, shown apart from the mapper's own. */
    public static final List<String> MAIN_COUNTERS = List.of("read", "written", "deleted", "skipped", "failed");

    public JobOutcome {
        totals = Map.copyOf(totals);
    }

    public static JobOutcome of(JobResult result) {
        return new JobOutcome(result.jobId(), result.status(), result.totals(), result.ranges(), result.maxDepth(),
                result.wallMillis(), result.failedRanges(), result.message(), result.report(),
                Operations.of(result));
    }

    public long total(String counter) {
        return totals.getOrDefault(counter, 0L);
    }

    /**
     * How many entities the job names that it could not write (see {@link #NOT_WRITTEN}); its report's skips name
     * them by reason.
     */
    public long notWritten() {
        return notWritten(totals);
    }

    /** "3 entities the job names could not be written and are unchanged", as every front end says it. */
    public static String notWrittenSentence(long notWritten) {
        return String.format("%,d entit%s the job names could not be written and %s unchanged", notWritten,
                notWritten == 1 ? "y" : "ies", notWritten == 1 ? "is" : "are");
    }

    /** {@link #notWritten()} of a job's {@code totals}. */
    public static long notWritten(Map<String, Long> totals) {
        return NOT_WRITTEN.stream().mapToLong(counter -> totals.getOrDefault(counter, 0L)).sum();
    }

    /**
     * The counters of entities a job left alone on purpose, though it was asked for them: a restore's entities changed
     * since its source (with skip-changed) or written again after --until, a revert's changed since the job it takes
     * back. A job done with any of them exits {@code 7} on every front end, the command line's and Beam's.
     */
    private static final Set<String> LEFT_ALONE = Stream.concat(Stream.of(RestoreMode.Backup.values())
                    .map(from -> JobReport.SKIPPED_PREFIX + from.changed()),
            Stream.of(JobReport.SKIPPED_PREFIX + PastRestore.WRITTEN_AFTER, Mappers.revertConflictCounter()))
            .collect(Collectors.toUnmodifiableSet());

    /** How many entities a job with {@code totals} left alone on purpose ({@link #LEFT_ALONE}). */
    public static long leftAlone(Map<String, Long> totals) {
        return LEFT_ALONE.stream().mapToLong(counter -> totals.getOrDefault(counter, 0L)).sum();
    }

    /** "done", "cancelled", "taken over", … */
    public String statusWord() {
        return status.word();
    }

    public double elapsedSeconds() {
        return elapsedMillis / 1000.0;
    }

    /** Whether running it again goes on where it stopped: it neither finished nor went to another runner. */
    public boolean resumable() {
        return status != JobStatus.DONE && status != JobStatus.TAKEN_OVER;
    }

    /** The mapper's own counters (all but {@link #MAIN_COUNTERS}), by name. */
    public List<Map.Entry<String, Long>> ownCounters() {
        Set<String> main = Set.copyOf(MAIN_COUNTERS);
        return totals.entrySet().stream().filter(e -> !main.contains(e.getKey()))
                .sorted(Map.Entry.comparingByKey()).toList();
    }
}
