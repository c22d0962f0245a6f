package io.keyranger.undo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.StringValue;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.job.JobResult;
import io.keyranger.executor.job.JobStatus;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.local.JobHandle;
import io.keyranger.executor.local.JobListener;
import io.keyranger.keys.KeyOrder;
import io.keyranger.support.ChildCli;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.Jobs;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cases on the emulator: an increment of 17,500 mixed entities that another client changes 100 of while it
 * runs, then reverted; and a delete with a where clause killed with -9 halfway, resumed, then reverted.
 */
class UndoRevertTest {
    @TempDir
    Path dir;

    @Test
    void anIncrementIsRevertedExactlyAndTheHundredChangedSinceAreConflictsThatKeepTheirValues() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("undo-inc");
        Datastore datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Rich", 17_500));
        Map<Key, Entity> seeded = RichEntities.read(datastore, "", "Rich");
        assertThat(seeded).hasSize(17_500);

        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, KeyOrder.EMULATOR, ServerLimits.EMULATOR);
        JobHandle job = executor.start(Jobs.over("Rich").id("inc").mapper("increment", "property", "balance",
                "amount", 7).workers(4).pageSize(50).spec(), JobListener.NONE);
        ShardedCounter counter = ShardedCounter.existing(datastore, "job:inc");
        while (counter.total("written") < 3_000 && !job.result().isDone()) {
            Thread.sleep(100);
        }
        // another client changes 100 entities the job has incremented already, while it runs
        Map<Key, Entity> changed = new HashMap<>();
        List<Key> keys = new ArrayList<>(seeded.keySet());
        for (int from = 0; from < keys.size() && changed.size() < 100; from += 500) {
            for (Entity e : datastore.fetch(keys.subList(from, Math.min(keys.size(), from + 500)).toArray(new Key[0]))) {
                if (changed.size() < 100 && e.getLong("balance") == seeded.get(e.getKey()).getLong("balance") + 7) {
                    Entity edited = Entity.newBuilder(e).set("balance", -1L).set("editedBy", StringValue.of("app"))
                            .build();
                    datastore.put(edited);
                    changed.put(edited.getKey(), edited);
                }
            }
        }
        boolean during = !job.result().isDone();
        JobResult done = job.await();
        assertThat(done.status()).isEqualTo(JobStatus.DONE);
        assertThat(changed).hasSize(100);
        assertThat(during).as("the 100 were changed while the job ran").isTrue();
        assertThat(done.total("undo records")).isEqualTo(17_500);

        InProcessCli cli = new InProcessCli(dir, conn);
        InProcessCli.Result revert = cli.run("revert", "inc", "--job-id", "undo-inc", "--workers", "4");
        assertThat(revert.exitCode()).as(revert.out() + revert.err()).isEqualTo(7);
        assertThat(revert.out()).contains("restored: 17,400").contains("skipped: changed since the job: 100");
        assertThat(revert.err()).contains("100 entities changed since job inc and kept their values");
        assertThat(revert.out()).containsPattern("changed since job inc: balance: the job left \\d+, now -1");

        Map<Key, Entity> after = RichEntities.read(datastore, "", "Rich");
        assertThat(after).hasSize(17_500);
        List<Key> wrong = new ArrayList<>();
        for (Map.Entry<Key, Entity> e : after.entrySet()) {
            Entity expected = changed.containsKey(e.getKey()) ? changed.get(e.getKey()) : seeded.get(e.getKey());
            if (!expected.equals(e.getValue())) {
                wrong.add(e.getKey());
            }
        }
        assertThat(wrong).as("entities not as expected, with types and index flags").isEmpty();
    }

    @Test
    void aDeleteKilledHalfwayResumedAndRevertedBringsBackEveryEntityIdentically() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("undo-del");
        Datastore datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Rich", 3_000));
        Map<Key, Entity> seeded = RichEntities.read(datastore, "", "Rich");
        InProcessCli cli = new InProcessCli(dir, conn);
        Path mapper = cli.mapper("{\"template\":\"delete\",\"where\":\"tier == 'pro'\"}");

        try (ChildCli child = ChildCli.start(dir, conn, List.of("run", "--kind", "Rich", "--mapper",
                mapper.toString(), "--job-id", "del", "--workers", "4", "--page-size", "50",
                "--hold-after-chunks", "12"))) {
            child.awaitHeld();
            child.kill(); // SIGKILL, every worker inside a commit
        }
        long deletedBeforeResume = 3_000 - RichEntities.read(datastore, "", "Rich").size();
        assertThat(deletedBeforeResume).as("killed halfway").isPositive().isLessThan(1_000);

        InProcessCli.Result resume = cli.run("run", "--resume", "del");
        assertThat(resume.exitCode()).as(resume.out() + resume.err()).isZero();
        Map<Key, Entity> left = RichEntities.read(datastore, "", "Rich");
        assertThat(left.values()).noneMatch(e -> e.getString("tier").equals("pro")).hasSize(2_000);

        InProcessCli.Result revert = cli.run("revert", "del");
        assertThat(revert.exitCode()).as(revert.out() + revert.err()).isZero();
        assertThat(revert.out()).contains("restored: 1,000");
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(seeded);
    }
}
