package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.cells.PageWork;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import io.keyranger.testhooks.FaultInjector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pipeline's job's ranges worked the ways a distributed runner works them, on the real emulator, with failed calls and
 * lost commit answers injected: bundles that die after a commit and are retried with their original restriction,
 * bundles split while running whose primary alone is retried while the residual runs, checkpoints that cut a page,
 * and the whole job run a second time. Every entity's effect is applied exactly once, and the counters say so.
 */
@OnDataEmulators
class PipelineJobsTest {
    @Parameter
    ServerType server;
    /** Over 20 cells on either emulator (the Firestore one samples every 128th key), about 8 pages a range. */
    private static final int ENTITIES = 3_000;
    private static final String[] COLORS = {"red", "green", "blue", "amber", "violet"};

    /** A bundle dying after a commit. */
    static final class BundleDied extends RuntimeException {
        BundleDied() {
            super("bundle died after a commit (test)");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}",
        "{\"template\":\"copy\",\"toKind\":\"ItemCopy\"}",
        "{\"template\":\"delete\"}",
        "{\"template\":\"count-by\",\"property\":\"color\"}"})
    void retriedSplitAndCheckpointedBundlesApplyEveryEntityExactlyOnce(String mapperJson) throws Exception {
        // on the Firestore emulator one mapper by default (its commits wait on locks, ~9 s a mapper); all with
        // -Dkeyranger.emulators.all=true
        Assumptions.assumeTrue(server == ServerType.EMULATOR || mapperJson.contains("increment")
                || Boolean.getBoolean("keyranger.emulators.all"), "time: the increment stands for the others here");
        ConnectionSpec conn = SharedEmulator.freshProject(server, "shared");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore);
        MapperSpec mapperSpec = MapperSpec.parse(mapperJson);
        JobSpec spec = new JobSpec("shared-" + mapperSpec.template(), "", "Item", mapperSpec, 6, 6, 60, 0);
        PipelineJobs job = PipelineJobs.createOrOpen(datastore, server.keyOrder(), spec, PipelineJobs.BEAM,
                Cancellation.NEVER);
        assertThat(job.cells().cells()).isGreaterThan(20);

        Datastore faulty = new FaultInjector(0.1, 0.1, 0, 7).wrap(datastore);
        PageMapper mapper = Mappers.create(mapperSpec);
        PageLoop processor = new PageLoop(new PageWork(faulty, spec, server.keyOrder(),
                server.limits(), mapper, job.cells(), new CellCommitter(faulty, server.keyOrder(), mapper, spec.jobId(),
                job.cells()), new Retries.Simple(30, 5, 200, 60_000)));
        List<KeyRange> ranges = job.cells().startingRanges(spec.shards());
        assertThat(ranges).hasSize(6);
        for (int i = 0; i < ranges.size(); i++) {
            switch (i % 3) {
                case 0 -> dieAfterCommitsThenRetryTheOriginal(processor, job, ranges.get(i));
                case 1 -> splitWhileRunningThenRetryOnlyThePrimary(processor, job, ranges.get(i));
                default -> checkpointsCuttingPages(processor, job, ranges.get(i));
            }
        }
        // and the whole job once more, as a rerun under the same id would (after the first launcher recorded its
        // end and released the lease, as BeamMain does when its pipeline fails): nothing applies again
        job.finish(1);
        PipelineJobs again = PipelineJobs.createOrOpen(datastore, server.keyOrder(), spec, PipelineJobs.BEAM,
                Cancellation.NEVER);
        assertThat(again.cells().bounds()).isEqualTo(job.cells().bounds());
        List<CellCommitter.Outcome> rerun = new ArrayList<>();
        for (KeyRange range : ranges) {
            processor.process(tracker(job, range), rerun::add);
        }
        assertThat(rerun.stream().mapToInt(CellCommitter.Outcome::applied).sum()).isZero();

        assertThat(job.cellsDone()).isEqualTo(job.cells().cells());
        assertThat(job.finish(1)).isEqualTo(JobStatus.DONE);
        verify(datastore, mapperSpec.template(), job.totals());
    }

    private static ConcurrentRangeTracker tracker(PipelineJobs job, KeyRange range) {
        return new ConcurrentRangeTracker(range, job.cells(), 100);
    }

    /**
     * The bundle dies after its 3rd commit, twice; each retry starts from the original restriction, passes over what
     * the attempts before committed and commits three pages more before it dies (a range of 500 keys in pages of 60
     * holds 8-9 pages, so the third attempt still has some).
     */
    private static void dieAfterCommitsThenRetryTheOriginal(PageLoop processor, PipelineJobs job,
                                                            KeyRange range) {
        for (int attempt = 0; attempt < 2; attempt++) {
            AtomicInteger commits = new AtomicInteger();
            int dieAt = 3;
            try {
                processor.process(tracker(job, range), outcome -> {
                    if (commits.incrementAndGet() == dieAt) {
                        throw new BundleDied();
                    }
                });
            } catch (BundleDied expected) {
                continue;
            }
            throw new AssertionError("the bundle should have died");
        }
        ConcurrentRangeTracker retry = tracker(job, range);
        processor.process(retry, outcome -> { });
        retry.checkDone();
    }

    /**
     * The runner splits the running range at half its rest (as dynamic work rebalancing does); the residual runs on
     * another worker at once; the primary's bundle dies after a commit and only the primary is retried; then the
     * original restriction is retried too (a runner that lost track of the split).
     */
    private static void splitWhileRunningThenRetryOnlyThePrimary(PageLoop processor, PipelineJobs job,
                                                                 KeyRange range) throws Exception {
        ConcurrentRangeTracker first = tracker(job, range);
        AtomicInteger commits = new AtomicInteger();
        List<CompletableFuture<Void>> residuals = new ArrayList<>();
        try {
            processor.process(first, outcome -> {
                int n = commits.incrementAndGet();
                if (n == 2) {
                    ConcurrentRangeTracker.Split split = first.trySplit(0.5).orElseThrow(() -> new AssertionError("no split of " + first + " cells " + job.cells().boundsInside(first.remaining(), null).size()));
                    residuals.add(CompletableFuture.runAsync(() ->
                            processor.process(tracker(job, split.residual()), o -> { })));
                } else if (n == 4) {
                    throw new BundleDied();
                }
            });
        } catch (BundleDied expected) {
            // the primary's bundle is lost
        }
        assertThat(residuals).hasSize(1);
        ConcurrentRangeTracker primary = tracker(job, first.range());
        processor.process(primary, outcome -> { });
        primary.checkDone();
        residuals.get(0).get();
        processor.process(tracker(job, range), outcome -> { });
    }

    /** Checkpoints in the middle of pages (the runner's trySplit(0)); each residual resumes later. */
    private static void checkpointsCuttingPages(PageLoop processor, PipelineJobs job, KeyRange range) {
        KeyRange rest = range;
        int checkpoints = 0;
        while (rest != null) {
            ConcurrentRangeTracker tracker = tracker(job, rest);
            AtomicInteger claims = new AtomicInteger();
            KeyRange[] residual = {null};
            Predicate<Key> claim = key -> {
                if (claims.incrementAndGet() == 37) {
                    tracker.trySplit(0).ifPresent(split -> residual[0] = split.residual());
                }
                return tracker.tryClaim(key);
            };
            Consumer<CellCommitter.Outcome> none = outcome -> { };
            processor.process(tracker, claim, none);
            tracker.checkDone();
            if (residual[0] != null) {
                checkpoints++;
            }
            rest = residual[0];
        }
        assertThat(checkpoints).isGreaterThan(0);
    }

    private static void seed(Datastore datastore) {
        List<Entity> batch = new ArrayList<>();
        for (int i = 1; i <= ENTITIES; i++) {
            Key key = i % 4 == 0 ? datastore.newKeyFactory().setKind("Item").newKey("item-" + i)
                    : datastore.newKeyFactory().setKind("Item").newKey(i * 7919L);
            batch.add(Entity.newBuilder(key).set("n", 0).set("color", COLORS[i % COLORS.length]).build());
            if (batch.size() == 500) {
                datastore.put(batch.toArray(new Entity[0]));
                batch.clear();
            }
        }
    }

    private static void verify(Datastore datastore, String template, Map<String, Long> totals) {
        List<Entity> items = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Item").build()).forEachRemaining(items::add);
        assertThat(totals).containsEntry("read", (long) ENTITIES);
        switch (template) {
            case "increment" -> {
                assertThat(items).hasSize(ENTITIES).allMatch(e -> e.getLong("n") == 1);
                assertThat(totals).containsEntry("written", (long) ENTITIES);
            }
            case "copy" -> {
                KeyQuery copies = Query.newKeyQueryBuilder().setKind("ItemCopy").build();
                List<Key> copied = new ArrayList<>();
                datastore.run(copies).forEachRemaining(copied::add);
                assertThat(copied).hasSize(ENTITIES);
                assertThat(totals).containsEntry("written", (long) ENTITIES);
            }
            case "delete" -> {
                assertThat(items).isEmpty();
                assertThat(totals).containsEntry("deleted", (long) ENTITIES);
            }
            case "count-by" -> {
                Map<String, Long> histogram = new HashMap<>();
                totals.forEach((field, value) -> {
                    String bucket = Mappers.countByBucket(field);
                    if (bucket != null) {
                        histogram.merge(bucket, value, Long::sum);
                    }
                });
                assertThat(histogram.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(ENTITIES);
                assertThat(histogram).hasSize(COLORS.length).allSatisfy((bucket, count) ->
                        assertThat(count).isEqualTo(ENTITIES / COLORS.length));
            }
            default -> throw new AssertionError(template);
        }
    }
}
