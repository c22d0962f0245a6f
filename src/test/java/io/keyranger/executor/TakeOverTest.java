package io.keyranger.executor;

import io.keyranger.job.LeaseMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobBusyException;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.support.Jobs;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.OnlyOn;
import io.keyranger.support.SharedEmulator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * A second runner takes a job over at the worst moments: inside the first runner's split, inside its last commit after
 * an export's parts were joined, inside an import's chunk. The hook runs the whole take-over between the first
 * runner's reads and its commit, so the server must abort that commit and the first runner must then find itself
 * fenced. Every entity ends changed exactly once, and the first runner says who took the job.
 */
@OnDataEmulators
class TakeOverTest {
    @Parameter
    ServerType server;

    @TempDir
    Path dir;

    @Test
    void aTakeOverInsideACommitStopsTheFirstRunnerAndEveryEntityIsIncrementedOnce() throws Exception {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject(server, "takeover-split"));
        seed(datastore, "Doc", 600);
        JobSpec spec = Jobs.over("Doc").id("split-taken").mapper("increment", "property", "n", "amount", 1)
                .shards(1).workers(4).pageSize(25).spec();
        AtomicReference<JobHandle> second = new AtomicReference<>();
        AtomicInteger commits = new AtomicInteger();
        // the third commit: on the Firestore emulator, with no 25-group limit, the whole job is about five commits
        Consumer<String> takeOverAtTheThirdCommit = what -> {
            if (what.startsWith("chunk ") && commits.incrementAndGet() == 3) {
                second.set(executor(datastore).resume(spec.jobId(), LeaseMode.TAKE_OVER_NOW, JobListener.NONE,
                        m -> { }));
            }
        };
        JobResult first = executor(datastore).leaseDuration(Duration.ofSeconds(1))
                .seams(EngineSeams.NONE.withBeforeCommit(takeOverAtTheThirdCommit)).start(spec, JobListener.NONE).await();

        assertThat(second.get()).as("the first runner was taken over mid-commit").isNotNull();
        assertThat(first.status()).isEqualTo(JobStatus.TAKEN_OVER);
        assertThat(first.message()).contains("Job split-taken was taken over by runner").contains("pid "
                + ProcessHandle.current().pid());
        JobResult taker = second.get().result().get(120, TimeUnit.SECONDS);
        assertThat(taker.status()).isEqualTo(JobStatus.DONE);
        assertEveryDocIncrementedOnce(datastore, 600);
        assertThat(ShardedCounter.existing(datastore, "job:split-taken").totals()).as("totals add up across runners")
                .containsEntry("read", 600L).containsEntry("written", 600L);
        // the job's records are its cells' ledgers: every cell done, each entity counted in one of them once
        List<NodeSnapshot> cells = executor(datastore).nodes(spec.jobId());
        assertThat(cells.stream().mapToLong(NodeSnapshot::entities).sum()).isEqualTo(600);
        assertThat(cells).allMatch(n -> n.status() == NodeStatus.DONE);
    }

    @Test
    @OnlyOn(value = ServerType.EMULATOR, byDefault = true, why = OnlyOn.HELD_LOCKS + "take-over inside a commit")
    void aTakeOverWhileAnExportIsJoinedGivesOneCompleteFileAndTheFirstRunnerLeavesThePartsAlone() throws Exception {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject(server, "takeover-join"));
        seed(datastore, "Doc", 300);
        Path out = dir.resolve("docs.jsonl");
        JobSpec spec = Jobs.over("Doc").id("join-taken").mapper("export", "file", out.toString())
                .shards(3).workers(3).pageSize(40).spec();
        AtomicReference<JobHandle> second = new AtomicReference<>();
        AtomicReference<String> interrupted = new AtomicReference<>();
        Consumer<String> takeOverAtFinish = what -> {
            if (what.equals("finish") && interrupted.compareAndSet(null, what)) {
                assertThat(out).as("the first runner joined its parts before recording the end").exists();
                second.set(executor(datastore).resume(spec.jobId(), LeaseMode.TAKE_OVER_NOW, JobListener.NONE,
                        m -> { }));
            }
        };
        JobResult first = executor(datastore).seams(EngineSeams.NONE.withBeforeCommit(takeOverAtFinish)).start(spec, JobListener.NONE).await();

        assertThat(first.status()).isEqualTo(JobStatus.TAKEN_OVER);
        assertThat(first.message()).contains("was taken over by");
        assertThat(second.get().result().get(60, TimeUnit.SECONDS).status()).isEqualTo(JobStatus.DONE);
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(300);
        Set<String> keys = new HashSet<>();
        lines.forEach(line -> keys.add(line.substring(0, line.indexOf("\"properties\""))));
        assertThat(keys).as("every entity once").hasSize(300);
        assertThat(out.resolveSibling(out.getFileName() + ".parts-join-taken")).doesNotExist();
        assertThat(ShardedCounter.existing(datastore, "job:join-taken").totals()).containsEntry("read", 300L);
    }

    @Test
    @OnlyOn(value = ServerType.EMULATOR, byDefault = true, why = OnlyOn.HELD_LOCKS + "take-over inside a commit")
    void aTakeOverDuringAnImportFencesTheFirstImportAndEveryEntityIsImportedOnce() throws Exception {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject(server, "takeover-import"));
        StringBuilder file = new StringBuilder();
        for (int i = 1; i <= 200; i++) {
            Entity doc = Entity.newBuilder(datastore.newKeyFactory().setKind("Doc").newKey("d" + i)).set("n", i).build();
            file.append(EntityCodec.encode(doc)).append('\n');
        }
        Path input = dir.resolve("docs.jsonl");
        Files.writeString(input, file);
        JobSpec spec = Jobs.over("Doc").id("imp").mapper("import", "file", input.toString()).workers(2).spec();
        AtomicReference<JobResult> second = new AtomicReference<>();
        AtomicReference<String> interrupted = new AtomicReference<>();
        Consumer<String> takeOverAtFirstChunk = what -> {
            if (what.startsWith("chunk") && interrupted.compareAndSet(null, what)) {
                try {
                    second.set(executor(datastore).resume("imp", LeaseMode.TAKE_OVER_NOW, JobListener.NONE,
                            m -> { }).await());
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        JobResult first = executor(datastore).seams(EngineSeams.NONE.withBeforeCommit(takeOverAtFirstChunk))
                .start(spec, JobListener.NONE).await();

        assertThat(first.status()).isEqualTo(JobStatus.TAKEN_OVER);
        assertThat(first.message()).contains("was taken over by");
        assertThat(second.get().status()).isEqualTo(JobStatus.DONE);
        assertThat(ShardedCounter.existing(datastore, "job:imp").totals()).as("each line imported once")
                .containsEntry("read", 200L).containsEntry("written", 200L);
        List<Entity> docs = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Doc").build()).forEachRemaining(docs::add);
        assertThat(docs).hasSize(200).allMatch(e -> e.getLong("n") == Long.parseLong(e.getKey().getName().substring(1)));
    }

    @Test
    void aResumeOfAJobThatAnotherRunnerHoldsIsRefusedWithWhoHoldsIt() throws Exception {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject(server, "takeover-busy"));
        seed(datastore, "Doc", 200);
        JobSpec spec = Jobs.over("Doc").id("busy").spec();
        JobHandle[] running = new JobHandle[1];
        AtomicBoolean paused = new AtomicBoolean();
        running[0] = executor(datastore).start(spec, new JobListener() {
            @Override
            public void onTotals(Map<String, Long> totals) {
                if (totals.getOrDefault("read", 0L) >= 40 && running[0] != null && paused.compareAndSet(false, true)) {
                    running[0].pause(); // holds its lease (renewed) while it waits
                }
            }
        });
        while (running[0] == null || !running[0].isPaused()) {
            Thread.sleep(20);
        }
        assertThat(executor(datastore).jobs()).singleElement().satisfies(job -> assertThat(job.describeStatus())
                .startsWith("running (runner ").contains("pid " + ProcessHandle.current().pid()));
        assertThatThrownBy(() -> executor(datastore).resume("busy", JobListener.NONE))
                .isInstanceOf(JobBusyException.class)
                .hasMessageContaining("Job busy is being run by runner")
                .hasMessageContaining("pid " + ProcessHandle.current().pid())
                .hasMessageContaining("--take-over --force");

        JobResult taker = executor(datastore).resume("busy", LeaseMode.TAKE_OVER_NOW, JobListener.NONE, m -> { })
                .await();
        running[0].resume();
        JobResult first = running[0].result().get(60, TimeUnit.SECONDS);
        assertThat(taker.status()).isEqualTo(JobStatus.DONE);
        assertThat(first.status()).isEqualTo(JobStatus.TAKEN_OVER);
        assertThat(ShardedCounter.existing(datastore, "job:busy").totals()).containsEntry("read", 200L);
        assertThat(executor(datastore).jobs()).singleElement().satisfies(job -> assertThat(job.describeStatus())
                .isEqualTo("done"));
    }

    private AdaptiveSplitExecutor executor(Datastore datastore) {
        return new AdaptiveSplitExecutor(datastore, server.keyOrder(), server.limits());
    }

    private static void seed(Datastore datastore, String kind, int count) {
        List<Entity> docs = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            docs.add(Entity.newBuilder(datastore.newKeyFactory().setKind(kind).newKey("d" + i)).set("n", 0).build());
        }
        for (int i = 0; i < docs.size(); i += 300) {
            datastore.put(docs.subList(i, Math.min(docs.size(), i + 300)).toArray(new Entity[0]));
        }
    }

    private static void assertEveryDocIncrementedOnce(Datastore datastore, int count) {
        List<Entity> docs = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Doc").build()).forEachRemaining(docs::add);
        assertThat(docs).hasSize(count);
        for (Entity doc : docs) {
            assertThat(doc.getLong("n")).as("%s", doc.getKey()).isEqualTo(1);
        }
        Set<Key> keys = new HashSet<>();
        docs.forEach(d -> keys.add(d.getKey()));
        assertThat(keys).hasSize(count);
    }
}
