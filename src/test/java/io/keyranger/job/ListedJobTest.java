package io.keyranger.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.mapper.MapperSpec;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a listing says of a job a revert took: how far the revert went (the emulator cases are in RevertTest). */
class ListedJobTest {
    private static final JobSpec INC = new JobSpec("inc", "", "Account",
            MapperSpec.parse("{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}"), 4, 4, 100, 0);
    private static final Instant ENDED = Instant.parse("2026-11-27T10:15:30.123Z");

    private static String listed(ListedJob.Reverted reverted) {
        return new ListedJob(INC, JobStatus.DONE, ENDED, null, List.of(ListedJob.LOCAL), reverted).describeStatus();
    }

    @Test
    void aRevertThatDidNotFinishSaysTheJobIsRevertedOnlyInPartAndHowToFinish() {
        assertThat(listed(null)).isEqualTo("done");
        assertThat(listed(new ListedJob.Reverted("undo-inc", JobStatus.DONE, ENDED, 0)))
                .isEqualTo("done; reverted by undo-inc at 2026-11-27T10:15:30Z");
        assertThat(listed(new ListedJob.Reverted("undo-inc", JobStatus.CANCELLED, ENDED, 0)))
                .isEqualTo("done; reverted in part: revert undo-inc cancelled at 2026-11-27T10:15:30Z (run --resume "
                        + "undo-inc finishes it)");
        assertThat(listed(new ListedJob.Reverted("undo-inc", JobStatus.FAILED, ENDED, 0)))
                .startsWith("done; reverted in part: revert undo-inc failed at ");
        assertThat(listed(new ListedJob.Reverted("undo-inc", JobStatus.RUNNING, null, 0)))
                .isEqualTo("done; being reverted by undo-inc (if it was interrupted: run --resume undo-inc)");
    }

    @Test
    void aRevertThatKeptChangedEntitiesSaysHowManyInWordsThatFollowTheCount() {
        assertThat(listed(new ListedJob.Reverted("undo-inc", JobStatus.DONE, ENDED, 1)))
                .isEqualTo("done; reverted in part by undo-inc at 2026-11-27T10:15:30Z: 1 entity has changed since "
                        + "the job and keeps its value (revert --force inc restores it too)");
        assertThat(listed(new ListedJob.Reverted("undo-inc", JobStatus.DONE, ENDED, 2)))
                .isEqualTo("done; reverted in part by undo-inc at 2026-11-27T10:15:30Z: 2 entities have changed "
                        + "since the job and keep their values (revert --force inc restores them too)");
    }
}
