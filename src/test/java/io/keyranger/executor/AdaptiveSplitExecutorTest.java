package io.keyranger.executor;

import io.keyranger.job.JobIds;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.Cancellation;
import io.keyranger.testhooks.FaultInjector;
import io.keyranger.datastore.ProgressListener;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.demo.DemoSeeder;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.local.SplitPolicy;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The executor on the real emulator: coverage, fan-out, exactly-once under injected faults, and resume. */
class AdaptiveSplitExecutorTest {
    private static final KeyOrder ORDER = KeyOrder.EMULATOR;
    private static final int ACCOUNTS = 3_000;
    private static Datastore datastore;
    private static List<Key> accounts;

    @BeforeAll
    static void seed() {
        datastore = SharedEmulator.connect(SharedEmulator.freshProject("exec"));
        new DemoSeeder(datastore).seed(ACCOUNTS, ProgressListener.NONE, Cancellation.NEVER);
        accounts = keys("Account");
    }

    private static List<Key> keys(String kind) {
        List<Key> keys = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind(kind).build()).forEachRemaining(keys::add);
        return keys;
    }

    private static JobSpec spec(String kind, String mapper, int shards, int workers, int pageSize) {
        return new JobSpec(JobIds.newJobId(kind), "", kind, MapperSpec.parse(mapper), shards, workers,
                pageSize, 0);
    }

    @Test
    void countJobReadsEveryEntityOnceAndTheTreeCoversEveryKeyOnce() throws Exception {
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, ORDER, ServerLimits.EMULATOR);
        Map<String, NodeSnapshot> seen = new ConcurrentHashMap<>();
        JobResult result = executor.start(spec("Account", "{\"template\":\"count\"}", 4, 4, 100), latestInto(seen))
                .await();

        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        assertThat(result.total("read")).isEqualTo(accounts.size()).isEqualTo(ACCOUNTS);
        assertThat(result.total("written")).isZero();
        List<NodeSnapshot> nodes = List.copyOf(seen.values());
        assertThat(nodes).hasSize(result.ranges());
        assertThat(nodes).allMatch(n -> n.status().isFinal());
        // a split node processed its range up to its last key; a done node processed all of it
        for (Key key : accounts) {
            long holders = nodes.stream().filter(n -> range(n).contains(key)
                    && (n.status() == NodeStatus.DONE || ORDER.compare(key, n.lastKey()) <= 0)).count();
            assertThat(holders).as("nodes that processed %s", key).isEqualTo(1);
        }
        assertThat(nodes.stream().mapToLong(NodeSnapshot::entities).sum()).isEqualTo(ACCOUNTS);
        // the job's records are its cells' ledgers: every cell done, each key in exactly one, counts exact
        List<NodeSnapshot> cells = executor.nodes(result.jobId());
        assertThat(cells).allMatch(n -> n.status() == NodeStatus.DONE);
        assertThat(cells.stream().mapToLong(NodeSnapshot::entities).sum()).isEqualTo(ACCOUNTS);
        for (Key key : accounts) {
            assertThat(cells.stream().filter(c -> range(c).contains(key)).count()).as("cells of %s", key).isEqualTo(1);
        }
        // 4 planned ranges of ~750 keys in pages of 100 fan out, a few levels deep, not hundreds: how far depends on
        // the emulator's latency under load (it serves one request at a time, so splits wait for headroom)
        assertThat(result.maxDepth()).isBetween(1, 12);
        assertThat(result.ranges()).isGreaterThan(4);
        assertThat(seen.keySet()).containsAll(nodes.stream().map(NodeSnapshot::id).toList());
        assertSplitsHeldDataAndTotalsAreExact(seen);
    }

    @Test
    void exactlyOnceUnderInjectedFaultsAndLostCommits() throws Exception {
        List<Entity> items = new ArrayList<>();
        for (int i = 1; i <= 600; i++) {
            items.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Item").newKey(i)).set("n", 0).build());
        }
        for (int i = 0; i < items.size(); i += 300) {
            datastore.put(items.subList(i, i + 300).toArray(new Entity[0]));
        }
        FaultInjector faults = new FaultInjector(0.10, 0.25, 0, 42); // enough lost answers that some surely come
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(faults.wrap(datastore), ORDER, ServerLimits.EMULATOR,
                new RetryPolicy(30, 1, 50));
        JobResult result = executor.start(spec("Item", "{\"template\":\"plus-one\"}", 3, 4, 15), new PlusOne(),
                JobListener.NONE).await();

        assertThat(result.status()).as("failed ranges: %d", result.failedRanges()).isEqualTo(JobStatus.DONE);
        assertThat(faults.failures()).isPositive();
        assertThat(faults.lostCommits()).isPositive();
        List<Entity> after = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Item").build()).forEachRemaining(after::add);
        assertThat(after).hasSize(600).allMatch(e -> e.getLong("n") == 1);
        assertThat(result.total("read")).isEqualTo(600);
        assertThat(result.total("written")).isEqualTo(600);
    }

    @Test
    void aCancelledJobResumesWithoutApplyingAnyPageTwice() throws Exception {
        List<Entity> items = new ArrayList<>();
        for (int i = 1; i <= 800; i++) {
            items.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Resumable").newKey("k" + i)).set("n", 0)
                    .build());
        }
        for (int i = 0; i < items.size(); i += 400) {
            datastore.put(items.subList(i, i + 400).toArray(new Entity[0]));
        }
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, ORDER, ServerLimits.EMULATOR);
        AtomicInteger commits = new AtomicInteger();
        JobHandle[] handle = new JobHandle[1];
        PlusOne mapper = new PlusOne();
        JobSpec spec = spec("Resumable", "{\"template\":\"touch\"}", 2, 2, 40);
        handle[0] = executor.start(spec, mapper, new JobListener() {
            @Override
            public void onTotals(Map<String, Long> totals) {
                if (commits.incrementAndGet() >= 6 && handle[0] != null) { // from the 6th on: the handle may come later
                    handle[0].cancel();
                }
            }
        });
        JobResult first = handle[0].await();
        assertThat(first.status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(first.total("read")).isBetween(1L, 799L);

        JobResult resumed = executor.resume(spec.jobId(), JobListener.NONE).await();
        assertThat(resumed.status()).isEqualTo(JobStatus.DONE);
        assertThat(resumed.total("read")).isEqualTo(800);
        assertThat(resumed.total("written")).isEqualTo(800);
        // the first run added 1 to what it committed; the resumed run (touch) rewrote the rest unchanged
        List<Entity> after = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Resumable").build()).forEachRemaining(after::add);
        assertThat(after.stream().filter(e -> e.getLong("n") == 1).count()).isEqualTo(first.total("written"));
        assertThat(after).allMatch(e -> e.getLong("n") <= 1);
    }

    @Test
    void aRangeThatKeepsFailingIsMarkedFailedAndTheRestGoesOn() throws Exception {
        List<Entity> items = new ArrayList<>();
        for (int i = 100; i < 400; i++) {
            items.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Poisoned").newKey("p-" + i)).set("n", 0)
                    .build());
        }
        datastore.put(items.toArray(new Entity[0]));
        PageMapper poisoned = new PlusOne() {
            @Override
            public MapResult map(Page page) {
                if (page.keys().stream().anyMatch(k -> k.getName().equals("p-250"))) {
                    throw new IllegalStateException("cannot map p-250");
                }
                return super.map(page);
            }
        };
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, ORDER, ServerLimits.EMULATOR);
        JobResult result = executor.start(spec("Poisoned", "{\"template\":\"touch\"}", 3, 3, 20), poisoned,
                JobListener.NONE).await();
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.failedRanges()).isEqualTo(1);
        assertThat(result.total("failed")).isPositive();
        assertThat(result.total("read")).isBetween(200L, 299L);
        NodeSnapshot failed = executor.nodes(result.jobId()).stream().filter(n -> n.status() == NodeStatus.FAILED)
                .findFirst().orElseThrow();
        assertThat(failed.lastError()).contains("cannot map p-250");
    }

    @Test
    void withoutScatterSamplesSplitsNeverLandInEmptyKeySpace() throws Exception {
        // dense low ids, a few ids near the top of the id space and a handful of names: key midpoints between
        // them are almost all empty. A given plan carries no scatter samples, so every split takes the fallback.
        KeyFactory factory = datastore.newKeyFactory().setKind("Sparse");
        List<Entity> data = new ArrayList<>();
        for (long id = 1; id <= 240; id++) {
            data.add(Entity.newBuilder(factory.newKey(id)).build());
        }
        for (long i = 0; i < 8; i++) {
            data.add(Entity.newBuilder(factory.newKey(Long.MAX_VALUE - i * 1_000)).build());
        }
        for (int i = 0; i < 12; i++) {
            data.add(Entity.newBuilder(factory.newKey("zz-" + i)).build());
        }
        datastore.put(data.toArray(new Entity[0]));
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, ORDER, ServerLimits.EMULATOR)
                .seams(EngineSeams.NONE.withInitialRanges(request -> List.of(KeyRange.all(ORDER))));
        Map<String, NodeSnapshot> seen = new ConcurrentHashMap<>();
        JobResult result = executor.start(spec("Sparse", "{\"template\":\"count\"}", 1, 4, 10), latestInto(seen))
                .await();

        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        assertThat(result.total("read")).isEqualTo(data.size());
        assertSplitsHeldDataAndTotalsAreExact(seen);
        assertThat(seen.values().stream().mapToLong(NodeSnapshot::entities).sum()).isEqualTo(data.size());
    }

    /** A listener that keeps the latest snapshot of each node, as the Run tab does. */
    private static JobListener latestInto(Map<String, NodeSnapshot> seen) {
        return new JobListener() {
            @Override
            public void onNode(NodeSnapshot node) {
                seen.put(node.id(), node);
            }
        };
    }

    /**
     * The last snapshot a listener got of each node is its final state: a split node's subtree total is exactly
     * what it and its descendants processed (published from many threads, never stale), and every piece of every
     * split held data (never a split into empty key space).
     */
    private static void assertSplitsHeldDataAndTotalsAreExact(Map<String, NodeSnapshot> seen) {
        List<NodeSnapshot> splits = seen.values().stream().filter(n -> n.status() == NodeStatus.SPLIT).toList();
        assertThat(splits).as("the job fanned out").isNotEmpty();
        for (NodeSnapshot split : splits) {
            long subtree = seen.values().stream()
                    .filter(n -> n.id().equals(split.id()) || n.id().startsWith(split.id() + "."))
                    .mapToLong(NodeSnapshot::entities).sum();
            assertThat(split.subtreeEntities()).as("subtree of %s", split.id()).isEqualTo(subtree)
                    .isGreaterThan(split.entities());
            List<NodeSnapshot> pieces = seen.values().stream().filter(n -> split.id().equals(n.parentId())).toList();
            assertThat(pieces).as("pieces of %s", split.id()).hasSizeBetween(2, SplitPolicy.MAX_PIECES);
            for (NodeSnapshot piece : pieces) {
                assertThat(piece.subtreeEntities()).as(piece.id()).isPositive();
            }
        }
    }

    private static KeyRange range(NodeSnapshot node) {
        KeyRange range = KeyRange.of(ORDER, node.startInclusive() ? node.start() : null, node.end());
        return node.startInclusive() || node.start() == null ? range : range.advancePast(node.start());
    }

    /** Adds one to "n": applied twice, it would show. */
    static class PlusOne implements PageMapper {
        @Override
        public String name() {
            return "plus-one";
        }

        @Override
        public boolean needsEntities() {
            return true;
        }

        @Override
        public boolean writes() {
            return true;
        }

        @Override
        public MapResult map(Page page) {
            List<Entity> puts = page.entities().stream()
                    .map(e -> Entity.newBuilder(e).set("n", e.getLong("n") + 1).build()).toList();
            return new MapResult(puts, List.of(), 0, Map.of());
        }
    }
}
