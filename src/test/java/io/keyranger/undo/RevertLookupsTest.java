package io.keyranger.undo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.PipelineJobs;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.cells.PageWork;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.UndoKept;
import io.keyranger.testhooks.FaultInjector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * A revert's commit makes as many round trips as a commit of the job it takes back: its page query reads the undo
 * records (they never change), so its transaction reads the ledgers, a counter shard and the entities the records name
 * in one lookup, then commits. The keys read are counted as before: each record and each entity it names.
 */
@OnDataEmulators
class RevertLookupsTest {
    @Parameter
    ServerType server;
    private static final int ENTITIES = 600;

    @Test
    void aRevertCommitReadsInOneLookupAsTheJobItRevertsAndCountsTheRecordsAndTheirEntitiesRead() {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "revert-lookups");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> all = new ArrayList<>();
        for (int i = 1; i <= ENTITIES; i++) {
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Item").newKey(i * 7919L)).set("n", 0L)
                    .build());
        }
        SharedEmulator.putAll(datastore, all);
        Map<Key, Entity> seeded = items(datastore);

        JobSpec job = new JobSpec("inc", "", "Item",
                MapperSpec.parse("{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}"), 4, 4, 100, 0);
        Counted ran = run(datastore, job);
        assertThat(items(datastore).values()).allMatch(e -> e.getLong("n") == 1L);
        assertThat(ran.commits).isGreaterThan(1);
        int records = UndoKept.records(datastore, "inc").size();

        JobSpec revert = JobUndo.revertSpec(job, new JobUndo.RevertSettings("undo-inc", false, 4, 4, 100, 0));
        Counted reverted = run(datastore, revert);
        assertThat(items(datastore)).isEqualTo(seeded);
        assertThat(reverted.commits).isGreaterThan(1);
        // every commit one lookup (ledgers, shard and what it reads), as the job's, besides a few of set-up (the
        // counter's shard count) that the job makes too: before, the revert read its records' entities in a second
        assertThat(reverted.lookups - reverted.commits).as("lookups %d for %d commits; the job's %d for %d",
                reverted.lookups, reverted.commits, ran.lookups, ran.commits)
                .isLessThanOrEqualTo(ran.lookups - ran.commits);
        assertThat(reverted.read).as("each record and each entity it names, read once").isEqualTo(records + ENTITIES);
        assertThat(ran.read).isEqualTo(ENTITIES);
    }

    /** What running a job's whole key space through the page loop cost: lookups, commits and keys counted read. */
    private record Counted(long lookups, long commits, long read) {
    }

    private Counted run(Datastore datastore, JobSpec spec) {
        PipelineJobs launch = PipelineJobs.createOrOpen(datastore, server.keyOrder(), spec, PipelineJobs.BEAM,
                Cancellation.NEVER);
        FaultInjector counter = new FaultInjector(0, 0, 0, 1);
        Datastore counted = counter.wrap(datastore);
        PageMapper mapper = Mappers.create(spec.mapper());
        PageLoop loop = new PageLoop(new PageWork(counted, spec, server.keyOrder(), server.limits(), mapper,
                launch.cells(), new CellCommitter(counted, server.keyOrder(), mapper, spec.jobId(), launch.cells(),
                server.limits()), new Retries.Simple(5, 5, 200, 60_000)), null,
                PageLoop.Covered.nothing(server.keyOrder()));
        AtomicLong read = new AtomicLong();
        loop.process(new ConcurrentRangeTracker(KeyRange.all(server.keyOrder()), launch.cells(), 50),
                outcome -> read.addAndGet(outcome.increments().getOrDefault("read", 0L)));
        return new Counted(counter.calls("get") + counter.calls("fetch"), counter.calls("commit"), read.get());
    }

    private static Map<Key, Entity> items(Datastore datastore) {
        Map<Key, Entity> now = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Item").build())
                .forEachRemaining(e -> now.put(e.getKey(), e));
        return now;
    }
}
