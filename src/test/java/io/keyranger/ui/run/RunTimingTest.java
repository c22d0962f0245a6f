package io.keyranger.ui.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.cost.PriceTable;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobStatus;
import io.keyranger.mapper.Mappers;
import io.keyranger.summary.JobOutcome;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Run tab's timing line of a job asked to stop and of one that ended: no ETA, and the summary's elapsed time. */
class RunTimingTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aJobAskedToStopLosesItsEta() {
        ThroughputMeter meter = new ThroughputMeter();
        long t = 0;
        meter.restart(t);
        for (int s = 1; s <= 20; s++) {
            t += SECOND;
            meter.tick(t, 100L * s, true, 20_000, true);
        }
        assertThat(meter.tick(t, 2_000, true, 20_000, true)).isEqualTo("elapsed 20.0 s · ETA 180 s");
        meter.stopping(t);
        t += SECOND;
        assertThat(meter.tick(t, 2_100, true, 20_000, true)).isEqualTo("elapsed 21.0 s");
    }

    @Test
    void anEndedJobShowsItsRunsElapsedTimeAsItsSummaryDoes() {
        JobOutcome cancelled = JobOutcome.of(new JobResult("exp", JobStatus.CANCELLED, Map.of("read", 900L), 6, 1,
                104_300, 0));
        assertThat(JobWords.timing(cancelled)).isEqualTo("elapsed 104.3 s");
        assertThat(JobWords.finished(cancelled, PriceTable.BUILT_IN))
                .startsWith("Job exp cancelled: 6 ranges, depth 1, 104.3 s.");
    }

    @Test
    void aJobDoneButForEntitiesItCouldNotWriteSaysSo() {
        JobOutcome copied = JobOutcome.of(new JobResult("copy", JobStatus.DONE, Map.of("read", 40L, "written", 37L,
                "skipped", 3L, "skipped: over 1 MiB", 2L, "skipped: undo record over 1 MiB", 1L), 4, 1, 2_000, 0));
        JobOutcome reverted = JobOutcome.of(new JobResult("undo", JobStatus.DONE, Map.of("read", 40L, "written", 39L,
                "skipped", 1L, Mappers.revertConflictCounter(), 1L),
                4, 1, 2_000, 0));

        assertThat(JobWords.finished(copied, PriceTable.BUILT_IN)).startsWith(
                "Job copy done: 4 ranges, depth 1, 2.0 s, but 3 entities could not be written (see skipped).");
        assertThat(JobWords.finished(reverted, PriceTable.BUILT_IN)).as("left alone on purpose")
                .startsWith("Job undo done: 4 ranges, depth 1, 2.0 s.");
    }
}
