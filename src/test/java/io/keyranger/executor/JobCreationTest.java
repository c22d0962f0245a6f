package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.cells.PageWork;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobBusyException;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Launches of one shared job racing on the real emulator: exactly one plans it, and no ledger is ever reset. */
class JobCreationTest {
    private static final KeyOrder ORDER = KeyOrder.EMULATOR;
    private Datastore datastore;
    private final MapperSpec increment = MapperSpec.parse("{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}");

    @BeforeEach
    void seed() {
        ConnectionSpec conn = SharedEmulator.freshProject("launch");
        datastore = SharedEmulator.connect(conn);
        List<Entity> items = new ArrayList<>();
        for (int i = 1; i <= 1_000; i++) {
            items.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Item").newKey(i * 7919L)).set("n", 0)
                    .build());
        }
        SharedEmulator.putAll(datastore, items);
    }

    private PageLoop processor(PipelineJobs job) {
        PageMapper mapper = Mappers.create(increment);
        return new PageLoop(new PageWork(datastore, job.spec(), ORDER, ServerLimits.EMULATOR,
                mapper, job.cells(), new CellCommitter(datastore, ORDER, mapper, job.spec().jobId(), job.cells()),
                new Retries.Simple(30, 5, 200, 60_000)));
    }

    private int process(PipelineJobs job, List<KeyRange> ranges) {
        PageLoop processor = processor(job);
        int[] applied = {0};
        for (KeyRange range : ranges) {
            ConcurrentRangeTracker tracker = new ConcurrentRangeTracker(range, job.cells(), 100);
            processor.process(tracker, outcome -> applied[0] += outcome.applied());
            tracker.checkDone();
        }
        return applied[0];
    }

    private List<Key> cellKeys(String jobId) {
        List<Key> keys = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setNamespace("").setKind(JobStore.RANGE_KIND)
                .setFilter(PropertyFilter.eq("jobId", jobId)).build()).forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void aJobIsCreatedWithItsPlanInOneTransactionAndASecondLaunchOpensThatPlan() {
        JobSpec spec = new JobSpec("raced", "", "Item", increment, 4, 4, 100, 0);
        PipelineJobs jobA = PipelineJobs.createOrOpen(datastore, ORDER, spec, PipelineJobs.BEAM, Cancellation.NEVER);
        JobStore store = new JobStore(datastore);
        assertThat(datastore.get(store.planKey("raced"))).as("the plan came with the job").isNotNull();
        assertThat(cellKeys("raced")).as("no ledger before the first commit").isEmpty();
        List<KeyRange> ranges = jobA.cells().startingRanges(spec.shards());
        int appliedByA = process(jobA, ranges.subList(0, 2));
        int cellsDoneByA = jobA.cellsDone();
        assertThat(appliedByA).isPositive();
        assertThat(cellsDoneByA).isPositive();

        assertThatThrownBy(() -> PipelineJobs.createOrOpen(datastore, ORDER, spec, PipelineJobs.BEAM, Cancellation.NEVER))
                .as("one runner at a time: the first launch's lease is live").isInstanceOf(JobBusyException.class)
                .hasMessageContaining("is being run by");
        PipelineJobs jobB = PipelineJobs.open(datastore, ORDER, spec, PipelineJobs.BEAM, true, Cancellation.NEVER);
        assertThat(jobB.cells().bounds()).as("the later launch opened the plan, not a new one")
                .isEqualTo(jobA.cells().bounds());
        assertThat(jobB.cellsDone()).as("no ledger reset").isEqualTo(cellsDoneByA);
        int appliedByB = process(jobB, jobB.cells().startingRanges(spec.shards()));
        assertThat(appliedByA + appliedByB).isEqualTo(1_000);
        List<Entity> items = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Item").build()).forEachRemaining(items::add);
        assertThat(items).hasSize(1_000).allMatch(e -> e.getLong("n") == 1);
        assertThat(jobB.finish(1)).isEqualTo(JobStatus.DONE);
        jobA.finish(1);
        assertThat(store.loadJob("raced").runners()).containsExactly(PipelineJobs.BEAM);
    }

    @Test
    void aJobWithThatIdAndAnotherSpecIsRefused() {
        JobSpec spec = new JobSpec("other", "", "Item", increment, 2, 2, 100, 0);
        PipelineJobs.createOrOpen(datastore, ORDER, spec, PipelineJobs.BEAM, Cancellation.NEVER).finish(1);
        JobSpec changed = new JobSpec("other", "", "Item",
                MapperSpec.parse("{\"template\":\"increment\",\"property\":\"n\",\"amount\":2}"), 2, 2, 100, 0);
        assertThatThrownBy(() -> PipelineJobs.createOrOpen(datastore, ORDER, changed, PipelineJobs.BEAM, Cancellation.NEVER))
                .hasMessageContaining("exists with another kind, namespace or mapper");
    }
}
