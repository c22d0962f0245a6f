package io.keyranger.reliability;

import io.keyranger.job.JobIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Query;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.support.Jobs;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.UndoKept;
import io.keyranger.testhooks.FaultInjector;
import io.keyranger.undo.JobUndo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * At a 10% fault rate, with lost commit answers, increment, copy, delete and count-by stay exactly once, on both
 * emulators.
 */
@OnDataEmulators
class FaultsExactlyOnceTest {
    @Parameter
    ServerType server;
    private static final int ENTITIES = 400;
    private Datastore datastore;
    private FaultInjector faults;
    private AdaptiveSplitExecutor executor;

    @BeforeEach
    void seed() {
        datastore = SharedEmulator.connect(SharedEmulator.freshProject(server, "faults"));
        List<Entity> entities = new ArrayList<>();
        for (int i = 1; i <= ENTITIES; i++) {
            Key key = i % 5 == 0
                    ? datastore.newKeyFactory().setKind("Acct").addAncestor(PathElement.of("Org", "o" + i % 7)).newKey(i)
                    : i % 2 == 0 ? datastore.newKeyFactory().setKind("Acct").newKey(i)
                    : datastore.newKeyFactory().setKind("Acct").newKey("ñ-𝔘-" + i);
            entities.add(Entity.newBuilder(key).set("balance", (long) i).set("tier", "t" + i % 3).build());
        }
        datastore.put(entities.toArray(new Entity[0]));
        faults = new FaultInjector(0.10, 0.10, 0, 99);
        executor = new AdaptiveSplitExecutor(faults.wrap(datastore), server.keyOrder(), server.limits(),
                new RetryPolicy(40, 1, 100));
    }

    private JobResult run(String json) throws Exception {
        // small pages mean well over a hundred commits, so that faults and lost answers surely occur
        return run(json, 8);
    }

    private JobResult run(String json, int pageSize) throws Exception {
        JobResult result = executor.start(new JobSpec(JobIds.newJobId("Acct"), "", "Acct",
                MapperSpec.parse(json), 4, 4, pageSize, 0), JobListener.NONE).await();
        assertThat(result.status()).as("failed ranges: %d", result.failedRanges()).isEqualTo(JobStatus.DONE);
        assertThat(faults.failures()).as("faults were injected").isPositive();
        assertThat(faults.lostCommits()).as("commit answers were lost").isPositive();
        return result;
    }

    private Map<Key, Entity> read(String namespace, String kind) {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setNamespace(namespace).setKind(kind).build())
                .forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }

    @Test
    void increment() throws Exception {
        JobResult result = run("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":1000}");
        Map<Key, Entity> after = read("", "Acct");
        assertThat(after).hasSize(ENTITIES);
        after.values().forEach(e -> {
            long id = e.getKey().hasId() ? e.getKey().getId() : Long.parseLong(e.getKey().getName().substring(5));
            assertThat(e.getLong("balance")).as("%s", e.getKey()).isEqualTo(id + 1000);
        });
        assertThat(result.total("written")).isEqualTo(ENTITIES);
    }

    @Test
    void transformThatIsNotIdempotent() throws Exception {
        JobResult result = run("{\"template\":\"transform\",\"set\":{\"balance\":\"balance * 2\"},"
                + "\"where\":\"tier != 't0'\"}");
        Map<Key, Entity> after = read("", "Acct");
        assertThat(after).hasSize(ENTITIES);
        long doubled = 0;
        for (Entity e : after.values()) {
            long id = e.getKey().hasId() ? e.getKey().getId() : Long.parseLong(e.getKey().getName().substring(5));
            boolean matched = id % 3 != 0;
            doubled += matched ? 1 : 0;
            assertThat(e.getLong("balance")).as("%s", e.getKey()).isEqualTo(matched ? id * 2 : id);
        }
        assertThat(result.total("written")).isEqualTo(doubled);
        assertThat(result.total("matched by where")).isEqualTo(doubled);
        assertThat(result.total("filtered out by where")).isEqualTo(ENTITIES - doubled);
    }

    @Test
    void copy() throws Exception {
        JobResult result = run("{\"template\":\"copy\",\"toNamespace\":\"copy\"}");
        assertThat(read("copy", "Acct")).hasSize(ENTITIES);
        assertThat(result.total("written")).isEqualTo(ENTITIES);
    }

    @Test
    void delete() throws Exception {
        JobResult result = run("{\"template\":\"delete\"}");
        assertThat(read("", "Acct")).isEmpty();
        assertThat(result.total("deleted")).isEqualTo(ENTITIES);
    }

    @Test
    void countBy() throws Exception {
        JobResult result = run("{\"template\":\"count-by\",\"property\":\"tier\"}", 8);
        assertThat(result.totals()).containsEntry("by:t0", 133L).containsEntry("by:t1", 134L)
                .containsEntry("by:t2", 133L);
        assertThat(result.total("read")).isEqualTo(ENTITIES);
    }

    @Test
    void readOnlyIsEnforcedInTheCore() {
        AdaptiveSplitExecutor readOnly = new AdaptiveSplitExecutor(datastore, server.keyOrder(), server.limits())
                .readOnly(true);
        assertThatThrownBy(() -> readOnly.start(Jobs.over("Acct").id("ro").mapper("delete").spec(), JobListener.NONE))
                .isInstanceOf(KeyRangerException.class).hasMessageContaining("read-only");
        assertThat(read("", "Acct")).hasSize(ENTITIES);
        assertThat(read("", "_KeyRangerJob")).isEmpty();
    }

    @Test
    void revertOfAnIncrementAndOfADeleteIsExactlyOnce() throws Exception {
        Map<Key, Entity> seeded = read("", "Acct");
        JobResult increment = run("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":1000}");
        FaultInjector revertFaults = revertFaults();
        JobResult revert = revert(increment.jobId(), revertFaults);
        assertThat(revertFaults.failures()).as("faults during the revert").isPositive();
        assertThat(revertFaults.lostCommits()).as("lost answers during the revert").isPositive();
        assertThat(read("", "Acct")).isEqualTo(seeded);
        // each entity restored once: a retried commit whose answer was lost found its keys covered, not "already"
        assertThat(revert.total("restored")).isEqualTo(ENTITIES);
        assertThat(revert.total("already as before")).isZero();
        assertThat(revert.total(JobResult.UNDO_IMAGES)).isEqualTo(ENTITIES);
        // the revert's own undo: each entity's image kept once, in as many records as the counter says
        assertThat(UndoKept.targets(datastore, revert.jobId())).hasSize(ENTITIES).doesNotHaveDuplicates();
        assertThat(UndoKept.records(datastore, revert.jobId())).hasSize((int) revert.total("undo records"));

        JobResult delete = run("{\"template\":\"delete\"}");
        assertThat(read("", "Acct")).isEmpty();
        assertThat(revert(delete.jobId(), revertFaults()).total("restored")).isEqualTo(ENTITIES);
        assertThat(read("", "Acct")).isEqualTo(seeded);
    }

    /**
     * The revert's own injector, its answers lost three times as often. Its failures and lost answers each draw from a
     * stream of their own, so whether one falls inside the revert's ~50 commits hangs on how many calls it makes, not
     * on the order its worker threads draw in (at 30% none is lost with odds of about 1 in 50 million).
     */
    private static FaultInjector revertFaults() {
        return new FaultInjector(0.10, 0.30, 0, 7);
    }

    private JobResult revert(String jobId, FaultInjector revertFaults) throws Exception {
        JobSpec spec = JobUndo.revertSpec(new JobStore(datastore)
                .loadJob(jobId).spec(), new JobUndo.RevertSettings("revert-" + jobId, false, 4, 4, 8, 0));
        AdaptiveSplitExecutor reverting = new AdaptiveSplitExecutor(revertFaults.wrap(datastore), server.keyOrder(),
                server.limits(), new RetryPolicy(40, 1, 100));
        JobResult result = reverting.start(spec, JobListener.NONE).await();
        assertThat(result.status()).as("failed ranges: %d", result.failedRanges()).isEqualTo(JobStatus.DONE);
        return result;
    }
}
