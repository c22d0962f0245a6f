package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.support.SharedEmulator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Launches of one shared job racing on the real emulator: exactly one plans it, and no ledger is ever reset. */
class SharedJobLaunchTest {
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

    /** A hook that holds the creating transaction, just before its commit, until released. */
    private static final class Held implements CommitHook {
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void beforeCommit(String what) {
            if (what.equals("create")) {
                reached.countDown();
                try {
                    assertThat(release.await(60, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private CompletableFuture<SharedJob> launch(JobSpec spec, CommitHook hook) {
        return CompletableFuture.supplyAsync(() -> SharedJobLaunch.createOrOpen(datastore, ORDER, spec, SharedJob.BEAM, Cancellation.NEVER, hook,
                Duration.ofMinutes(2)));
    }

    private SharedRangeProcessor processor(SharedJob job) {
        PageMapper mapper = Mappers.create(increment);
        return new SharedRangeProcessor(new SharedRangeProcessor.Job(datastore, job.spec(), ORDER, ServerLimits.EMULATOR,
                mapper, job.cells(), new CellCommitter(datastore, ORDER, mapper, job.spec().jobId(), job.cells()),
                new Retries.Simple(30, 5, 200, 60_000)));
    }

    private int process(SharedJob job, List<KeyRange> ranges) {
        SharedRangeProcessor processor = processor(job);
        int[] applied = {0};
        for (KeyRange range : ranges) {
            SharedRangeTracker tracker = new SharedRangeTracker(range, job.cells(), 100);
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
    void twoCreationsHeldAfterFindingNoJobPlanItOnceAndTheLaterOneResetsNoLedger() throws Exception {
        JobSpec spec = new JobSpec("raced", "", "Item", increment, 4, 4, 100, 0);
        Held first = new Held();
        Held second = new Held();
        CompletableFuture<SharedJob> a = launch(spec, first);
        CompletableFuture<SharedJob> b = launch(spec, second);
        assertThat(first.reached.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(second.reached.await(60, TimeUnit.SECONDS)).as("both found no job and are about to create it")
                .isTrue();
        first.release.countDown();
        SharedJob jobA = a.get(60, TimeUnit.SECONDS);
        List<KeyRange> ranges = jobA.cells().startingRanges(spec.shards());
        int appliedByA = process(jobA, ranges.subList(0, 2)); // pages commit through the first half's ledgers
        int cellsDoneByA = jobA.cellsDone();
        assertThat(appliedByA).isPositive();
        assertThat(cellsDoneByA).isPositive();

        second.release.countDown();
        SharedJob jobB = b.get(60, TimeUnit.SECONDS);
        assertThat(jobB.cells().bounds()).as("the later launch opened the plan, not a new one")
                .isEqualTo(jobA.cells().bounds());
        assertThat(cellKeys("raced")).hasSize(jobA.cells().cells());
        assertThat(jobB.cellsDone()).as("no ledger reset").isEqualTo(cellsDoneByA);
        int appliedByB = process(jobB, jobB.cells().startingRanges(spec.shards()));
        assertThat(appliedByA + appliedByB).isEqualTo(1_000);
        List<Entity> items = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Item").build()).forEachRemaining(items::add);
        assertThat(items).hasSize(1_000).allMatch(e -> e.getLong("n") == 1);
        assertThat(jobB.finish(1)).isEqualTo(JobStatus.DONE);
    }

    @Test
    void aPlannerThatStoodStillIsReplacedAndItsCellsPlannedAgain() throws Exception {
        JobSpec spec = new JobSpec("stalled", "", "Item", increment, 2, 2, 100, 0);
        JobStore store = new JobStore(datastore);
        // what a launch that died while planning leaves: its job, named as its, and a few of its cells
        datastore.put(store.newJobEntity(spec.bind(datastore.getOptions().getProjectId(), ORDER), java.time.Instant.now())
                .set("runner", SharedJob.BEAM).set("planner", "dead").set("plannerBeat", "dead:24").build());
        for (int i = 0; i < 5; i++) {
            datastore.put(store.nodeEntity("stalled", new RangeNode(CellPlan.nodeId(i), null, 0,
                    KeyRange.all(ORDER))));
        }
        SharedJob job = SharedJobLaunch.createOrOpen(datastore, ORDER, spec, SharedJob.BEAM, Cancellation.NEVER,
                CommitHook.NONE, Duration.ofMillis(500));
        assertThat(cellKeys("stalled")).as("only the new plan's cells").hasSize(job.cells().cells());
        assertThat(job.cells().cells()).isGreaterThan(5);
        assertThat(process(job, job.cells().startingRanges(spec.shards()))).isEqualTo(1_000);
        assertThat(SharedJob.createOrOpen(datastore, ORDER, spec, SharedJob.BEAM, Cancellation.NEVER).cells().bounds())
                .isEqualTo(job.cells().bounds());
    }
}
