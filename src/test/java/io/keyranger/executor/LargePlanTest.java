package io.keyranger.executor;

import io.keyranger.job.JobIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.store.JobPlans;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A plan too big for one entity (long keys, many samples) is stored in parts with its job, read back whole, and the
 * job it plans runs exactly once on the emulator.
 */
class LargePlanTest {
    private static final KeyOrder ORDER = KeyOrder.EMULATOR;

    @Test
    void aPlanOfLongKeysIsStoredInPartsAndTheJobRunsOverEveryCell() throws InterruptedException {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("largeplan"));
        List<Entity> items = new ArrayList<>();
        String padding = "x".repeat(1_200);
        for (int i = 0; i < 2_500; i++) {
            items.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Long")
                    .newKey(String.format("%05d-%s", i, padding))).set("n", 0).build());
        }
        SharedEmulator.putAll(datastore, items);
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, ORDER, ServerLimits.EMULATOR);
        JobSpec spec = new JobSpec(JobIds.newJobId("Long"), "", "Long",
                MapperSpec.parse("{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}"), 16, 8, 100, 0);

        JobResult result = executor.start(spec, JobListener.NONE).await();

        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        assertThat(result.total("written")).isEqualTo(2_500);
        List<Long> values = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Long").build()).forEachRemaining(e -> values.add(
                e.getLong("n")));
        assertThat(values).hasSize(2_500).containsOnly(1L);
        JobStore store = new JobStore(datastore);
        Entity plan = datastore.get(store.planKey(spec.jobId()));
        // 16 shards x 64 samples of keys over 1.6 KB URL-safe: more than one entity's worth of bounds
        assertThat(plan.getLong("parts")).isGreaterThan(1);
        JobPlans.Stored stored = store.loadPlan(spec.jobId(), ORDER);
        assertThat(stored.cells().cells()).isGreaterThan(500);
        assertThat(stored.cells().bounds()).isSortedAccordingTo(ORDER).doesNotHaveDuplicates();
        assertThat(executor.nodes(spec.jobId())).hasSize(stored.cells().cells());

        // a part lost: the job says its plan is damaged instead of planning over fewer cells
        datastore.delete(Key.newBuilder(plan.getKey(), "_KeyRangerPlanPart", 1).build());
        assertThatThrownBy(() -> store.loadPlan(spec.jobId(), ORDER)).isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("Part 1 of the plan of job " + spec.jobId() + " is missing");
    }
}
