package io.keyranger.undo;

import io.keyranger.job.LeaseMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.cells.PageWork;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.store.JobStore;
import io.keyranger.executor.store.PendingCells;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.keys.KeyRange;
import io.keyranger.executor.Engine;
import io.keyranger.executor.PipelineJobs;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * A revert takes the job it reverts back only once nothing can refuse the revert job, and what it leaves on the job
 * (its status, the marks on its ledgers) neither changes what the job's records say it did nor is overwritten by the
 * end of a Beam pipeline that was still running detached.
 */
@OnDataEmulators
class RevertTakesTheJobLastTest {
    @Parameter
    ServerType server;
    private static final int ENTITIES = 1_200;
    private static final String INCREMENT = "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}";

    private Datastore datastore;
    private Engine launcher;
    private Map<Key, Entity> seeded;

    @BeforeEach
    void seed() {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "revert-last");
        datastore = SharedEmulator.connect(conn);
        launcher = new Engine(Session.of(conn, datastore), RetryPolicy.DEFAULT, Duration.ofSeconds(30));
        List<Entity> all = new ArrayList<>();
        for (int i = 1; i <= ENTITIES; i++) {
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Item").newKey(i * 7919L)).set("n", 0L)
                    .build());
        }
        SharedEmulator.putAll(datastore, all);
        seeded = items();
    }

    @Test
    void aRevertRefusedForItsIdLeavesTheJobAsItWasAndCanBeRunAgain() throws Exception {
        JobResult job = launcher.start(new JobSpec("inc", "", "Item", MapperSpec.parse(INCREMENT), 4, 4, 100, 0),
                LeaseMode.RESUME, new JobListener() { }, m -> { }).await();
        assertThat(job.status()).isEqualTo(JobStatus.DONE);
        Map<Key, Entity> incremented = items();

        // the revert job's id is taken (by the job itself): refused, and before anything of the job was taken
        assertThatThrownBy(() -> JobUndo.startRevert(launcher, "inc", settings("inc"), new JobListener() { },
                m -> { })).isInstanceOf(KeyRangerException.class);
        Entity stored = datastore.get(new JobStore(datastore).jobKey("inc"));
        assertThat(stored.contains(JobStore.REVERTED_BY)).as("no revert ran, none is named").isFalse();
        assertThat(stored.getString("status")).isEqualTo(JobStatus.DONE.name());
        assertThat(new JobStore(datastore).loadLedgers("inc", datastore))
                .noneMatch(l -> l.contains(JobStore.REVERTED_BY));
        assertThat(items()).isEqualTo(incremented);

        JobResult revert = JobUndo.startRevert(launcher, "inc", settings("undo-inc"), new JobListener() { },
                m -> { }).await();
        assertThat(revert.status()).isEqualTo(JobStatus.DONE);
        assertThat(items()).isEqualTo(seeded);
    }

    @Test
    void aDetachedBeamJobIsRevertedAsFarAsItRanItsRecordsUnchangedAndItsLateEndRecordsNothing() throws Exception {
        MapperSpec mapperSpec = MapperSpec.parse(INCREMENT);
        JobSpec spec = new JobSpec("beam-inc", "", "Item", mapperSpec, 8, 8, 50, 0);
        PipelineJobs job = PipelineJobs.createOrOpen(datastore, server.keyOrder(), spec, PipelineJobs.BEAM, Cancellation.NEVER);
        PageMapper mapper = Mappers.create(mapperSpec);
        PageLoop loop = new PageLoop(new PageWork(datastore, spec, server.keyOrder(), server.limits(), mapper,
                job.cells(), new CellCommitter(datastore, server.keyOrder(), mapper, spec.jobId(), job.cells()),
                new Retries.Simple(5, 5, 200, 60_000)));
        List<KeyRange> ranges = job.cells().startingRanges(spec.shards());
        assertThat(ranges.size()).isGreaterThan(2);
        loop.process(new ConcurrentRangeTracker(ranges.get(0), job.cells(), 50), outcome -> { });
        job.detach(); // launched with --waitUntilFinish=false: the launcher holds no lease while the pipeline runs
        assertThat(job.cellsDone()).as("killed early: some cells done").isBetween(1, job.cells().cells() - 1);

        AdaptiveSplitExecutor executor = launcher.executor();
        List<NodeSnapshot> nodes = executor.nodes("beam-inc");
        List<String> report = executor.report("beam-inc").lines();
        Map<String, Long> totals = executor.totals("beam-inc");
        List<KeyRange> pending = PendingCells.read(new JobStore(datastore), "beam-inc", job.cells()).ranges(8);

        List<String> said = new CopyOnWriteArrayList<>();
        JobResult revert = JobUndo.startRevert(launcher, "beam-inc", settings("undo-beam-inc"),
                new JobListener() { }, said::add).await();
        assertThat(revert.status()).isEqualTo(JobStatus.DONE);
        assertThat(items()).isEqualTo(seeded);
        assertThat(said).singleElement().asString().contains("no runner holds its lease")
                .contains("detached Beam pipeline").doesNotContain("runner is gone");

        // the marks the revert left on every ledger (new ones for the cells never reached) change no record
        assertThat(new JobStore(datastore).loadLedgers("beam-inc", datastore)).hasSize(job.cells().cells())
                .allMatch(l -> l.contains(JobStore.REVERTED_BY));
        assertThat(executor.nodes("beam-inc")).isEqualTo(nodes);
        assertThat(executor.nodes("beam-inc").stream().filter(n -> n.status() == NodeStatus.DONE).count())
                .isEqualTo(job.cellsDone());
        assertThat(executor.report("beam-inc").lines()).isEqualTo(report);
        assertThat(executor.totals("beam-inc")).isEqualTo(totals);
        assertThat(PendingCells.read(new JobStore(datastore), "beam-inc", job.cells()).ranges(8)).isEqualTo(pending);
        assertThat(executor.status("beam-inc")).isEqualTo(JobStatus.CANCELLED);

        // the detached pipeline's last step ends after the revert: the revert's status stays
        assertThat(PipelineJobs.finish(datastore, server.keyOrder(), "beam-inc", 1)).isEqualTo(JobStatus.CANCELLED);
        assertThat(executor.status("beam-inc")).isEqualTo(JobStatus.CANCELLED);
        assertThat(items()).isEqualTo(seeded);
    }

    private static JobUndo.RevertSettings settings(String revertId) {
        return new JobUndo.RevertSettings(revertId, false, 4, 4, 100, 0);
    }

    private Map<Key, Entity> items() {
        Map<Key, Entity> now = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Item").build())
                .forEachRemaining(e -> now.put(e.getKey(), e));
        return now;
    }
}
