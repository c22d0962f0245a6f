package io.keyranger.executor;

import io.keyranger.job.JobIds;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.cells.PageWork;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.local.SplitPolicy;
import io.keyranger.executor.range.RangeNode;
import io.keyranger.executor.store.JobStore;
import io.keyranger.executor.store.PendingCells;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.NodeStatus;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.keys.KeySplitter;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Ranges that split inside a cell, on the real emulator: a job planned as one cell (no scatter samples) whose ranges
 * split at the key midpoint after every page, and a second runner working the same cell in four ranges while the
 * first runs. Each commits through the cell's ledger; they must never fail because of each other, and every entity
 * is incremented exactly once, as the emulator answers afterwards.
 */
class DividedCellsTest {
    private static final KeyOrder ORDER = KeyOrder.EMULATOR;
    private static final int ENTITIES = 2_000;

    /** Split at the key midpoint after every page, data or not (the bench's adaptive-midpoint baseline). */
    private static final SplitPolicy MIDPOINT = new SplitPolicy() {
        @Override
        public List<Key> splitPoints(Context context) {
            return KeySplitter.midpoint(context.order(), context.lastKey(), context.rest().end()).map(List::of)
                    .orElse(List.of());
        }

        @Override
        public boolean blind() {
            return true;
        }
    };

    @Test
    void rangesSplittingAtEveryPageInsideOneCellApplyEveryEntityOnce() throws Exception {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("divide"));
        seed(datastore, "Item");
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, ORDER, ServerLimits.EMULATOR)
                .seams(EngineSeams.NONE.withInitialRanges(request -> List.of(KeyRange.all(ORDER))))
                .splitPolicy(MIDPOINT);
        JobSpec spec = spec("Item", 8);
        JobResult result = executor.start(spec, JobListener.NONE).await();

        assertThat(result.failedRanges()).as(result.message()).isZero();
        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        assertThat(result.ranges()).isGreaterThan(20);
        assertThat(result.total("read")).isEqualTo(ENTITIES);
        assertIncrementedOnce(datastore, "Item");
        assertCellDone(datastore, spec.jobId());
    }

    @Test
    void twoRunnersCommittingInOneCellAtOnceApplyEveryEntityOnce() throws Exception {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("divide2"));
        seed(datastore, "Item");
        // the first runner: the local executor, splitting its one cell at the midpoint after every page
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, ORDER, ServerLimits.EMULATOR)
                .seams(EngineSeams.NONE.withInitialRanges(request -> List.of(KeyRange.all(ORDER))))
                .splitPolicy(MIDPOINT);
        JobSpec spec = spec("Item", 4);
        JobHandle first = executor.start(spec, JobListener.NONE);
        // the second: four ranges of the same cell at once, as Beam workers would, through the same ledgers
        JobStore store = new JobStore(datastore);
        JobSpec bound = spec.bind(datastore.getOptions().getProjectId(), ORDER);
        CellPlan cells = store.loadPlan(spec.jobId(), ORDER).cells();
        assertThat(cells.cells()).isEqualTo(1);
        PageMapper mapper = Mappers.create(bound.mapper());
        Retries.Policy retries = new Retries.Simple(10, 100, 5_000, 600_000); // a Beam worker's (KeyRangeFn)
        PageWork job = new PageWork(datastore, bound, ORDER, ServerLimits.EMULATOR, mapper, cells,
                new CellCommitter(datastore, ORDER, mapper, spec.jobId(), cells), retries);
        List<CompletableFuture<Void>> second = new ArrayList<>();
        for (KeyRange range : quarters(datastore)) {
            second.add(CompletableFuture.runAsync(() -> {
                ConcurrentRangeTracker tracker = new ConcurrentRangeTracker(range, cells, 0);
                new PageLoop(job).process(tracker, outcome -> { });
                tracker.checkDone();
            }));
        }
        for (CompletableFuture<Void> range : second) {
            range.get(); // a range that failed throws here
        }
        JobResult result = first.await();

        assertThat(result.failedRanges()).as(result.message()).isZero();
        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        assertIncrementedOnce(datastore, "Item");
        assertThat(ShardedCounter.existing(datastore, JobSpec.counterName(spec.jobId()))
                .totals()).containsEntry("read", (long) ENTITIES).containsEntry("written", (long) ENTITIES);
        assertCellDone(datastore, spec.jobId());
    }

    private static JobSpec spec(String kind, int workers) {
        return new JobSpec(JobIds.newJobId(kind), "", kind,
                MapperSpec.parse("{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}"), 1, workers, 10, 0);
    }

    /** The key space cut at three existing keys into four ranges. */
    private static List<KeyRange> quarters(Datastore datastore) {
        List<Key> keys = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Item").build()).forEachRemaining(keys::add);
        List<KeyRange> ranges = new ArrayList<>();
        Key start = null;
        for (int q = 1; q <= 4; q++) {
            Key end = q == 4 ? null : keys.get(q * keys.size() / 4);
            ranges.add(KeyRange.of(ORDER, start, end));
            start = end;
        }
        return ranges;
    }

    private static void seed(Datastore datastore, String kind) {
        List<Entity> batch = new ArrayList<>();
        for (int i = 1; i <= ENTITIES; i++) {
            Key key = i % 5 == 0 ? datastore.newKeyFactory().setKind(kind).newKey("item-" + i)
                    : datastore.newKeyFactory().setKind(kind).newKey(i * 7919L);
            batch.add(Entity.newBuilder(key).set("n", 0).build());
            if (batch.size() == 500) {
                datastore.put(batch.toArray(new Entity[0]));
                batch.clear();
            }
        }
    }

    private static void assertIncrementedOnce(Datastore datastore, String kind) {
        List<Entity> items = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind(kind).build()).forEachRemaining(items::add);
        assertThat(items).hasSize(ENTITIES);
        assertThat(items.stream().filter(e -> e.getLong("n") != 1).map(e -> e.getKey() + "=" + e.getLong("n")))
                .isEmpty();
    }

    /** The job's report and what a resume would start from both say its one cell is done, with every entity. */
    private static void assertCellDone(Datastore datastore, String jobId) {
        JobStore store = new JobStore(datastore);
        List<RangeNode> nodes = store.loadNodes(jobId, ORDER, datastore);
        assertThat(nodes).hasSize(1);
        assertThat(nodes.get(0).status()).isEqualTo(NodeStatus.DONE);
        CellPlan cells = store.loadPlan(jobId, ORDER).cells();
        assertThat(PendingCells.read(store, jobId, cells).ranges(4)).isEmpty();
    }
}
