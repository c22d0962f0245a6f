package io.keyranger.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.summary.JobProgress.Phase;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** A job's progress as a value: its ranges counted from their snapshots, and an ETA only while it runs on. */
class JobProgressTest {
    private static NodeSnapshot node(String id, int depth, NodeStatus status) {
        return new NodeSnapshot("j", id, null, depth, null, true, null, null, status, 0, 0, 0, 0, null, null, null);
    }

    @Test
    void rangesAreCountedByWhereTheyAreWithTheDeepestOne() {
        JobProgress.Ranges ranges = JobProgress.Ranges.of(List.of(node("r0", 0, NodeStatus.SPLIT),
                node("r0.0", 1, NodeStatus.DONE), node("r0.1", 1, NodeStatus.RUNNING), node("r1", 0, NodeStatus.FAILED),
                node("r2", 0, NodeStatus.QUEUED)));
        assertThat(ranges).isEqualTo(new JobProgress.Ranges(5, 1, 1, 1, 1, 1));
        assertThat(ranges.toGo()).isEqualTo(2);
    }

    @Test
    void onlyARunningJobCanHaveAnEta() {
        for (Phase phase : List.of(Phase.PAUSED, Phase.STOPPING)) {
            assertThatThrownBy(() -> new JobProgress(Map.of(), JobProgress.Ranges.NONE, phase, 0, 1,
                    OptionalDouble.of(37))).as(phase.name()).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
