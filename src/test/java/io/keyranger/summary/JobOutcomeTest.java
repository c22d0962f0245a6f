package io.keyranger.summary;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.job.JobResult;
import io.keyranger.job.JobStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a job ended, from its result: the figures every summary lays out. */
class JobOutcomeTest {
    @Test
    void aFinishedJobsFiguresComeFromItsPersistedResult() {
        JobOutcome job = JobOutcome.of(new JobResult("inc-1", JobStatus.DONE, Map.of("read", 20_000L, "written",
                20_000L, JobResult.UNDO_RECORDS, 20_000L, "by:pro", 7L), 35, 3, 104_300, 0));
        assertThat(job.statusWord()).isEqualTo("done");
        assertThat(job.elapsedSeconds()).isEqualTo(104.3);
        assertThat(job.resumable()).isFalse();
        assertThat(job.operations()).isEqualTo(new Operations(20_000, 40_000, 0, 20_000));
        assertThat(job.ownCounters()).extracting(Map.Entry::getKey).containsExactly("by:pro", JobResult.UNDO_RECORDS);
    }

    @Test
    void aStoppedJobCanBeResumedAndOneTakenOverCannot() {
        assertThat(outcome(JobStatus.CANCELLED).resumable()).isTrue();
        assertThat(outcome(JobStatus.FAILED).resumable()).isTrue();
        assertThat(outcome(JobStatus.TAKEN_OVER).resumable()).isFalse();
        assertThat(outcome(JobStatus.TAKEN_OVER).statusWord()).isEqualTo("taken over");
    }

    private static JobOutcome outcome(JobStatus status) {
        return JobOutcome.of(new JobResult("j", status, Map.of(), 1, 0, 10, 0));
    }
}
