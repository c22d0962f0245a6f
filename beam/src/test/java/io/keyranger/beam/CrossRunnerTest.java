package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.cli.KeyRangerCli;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.PipelineJobs;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.store.JobPlans;
import io.keyranger.support.ChildCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.OnlyOn;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * One job, two runners: a job started by the local executor is finished by the Beam pipeline, and the other way
 * round, and both work on one job at once. Every entity is incremented exactly once, and the job's totals add up
 * across the runners. Against the real emulator; the local runner is the real CLI, held and killed with SIGKILL in a
 * child process where the test says so.
 */
@OnDataEmulators
class CrossRunnerTest {
    @Parameter
    ServerType server;
    private static final int ENTITIES = 8_000;
    private static final String INCREMENT = "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}";

    @TempDir
    Path dir;

    /** {@code keyranger ARGS} in this JVM: its exit code and what it printed. */
    private String[] cli(String project, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--emulator-host", BeamEmulator.host(project), "--project", project));
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(dir, Map.of(), request -> { }), new PrintWriter(out),
                new PrintWriter(err), all.toArray(new String[0]));
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    private Path mapper() throws Exception {
        Path file = dir.resolve("increment.json");
        Files.writeString(file, INCREMENT);
        return file;
    }

    private static long read(Datastore datastore, String jobId) {
        try {
            return ShardedCounter.existing(datastore, "job:" + jobId).totals().getOrDefault("read", 0L);
        } catch (RuntimeException notYet) {
            return 0;
        }
    }

    private static void assertIncrementedOnce(Datastore datastore, String jobId) {
        List<Entity> items = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Item").build()).forEachRemaining(items::add);
        assertThat(items).hasSize(ENTITIES);
        assertThat(items.stream().filter(e -> e.getLong("n") != 1).map(Entity::getKey).limit(5).toList())
                .as("entities not incremented exactly once").isEmpty();
        Map<String, Long> totals = ShardedCounter.existing(datastore, "job:" + jobId).totals();
        assertThat(totals).as("totals add up across runners").containsEntry("read", (long) ENTITIES)
                .containsEntry("written", (long) ENTITIES);
    }

    private List<String> runners(Datastore datastore, String jobId) {
        AdaptiveSplitExecutor local = new AdaptiveSplitExecutor(datastore, server.keyOrder(), server.limits());
        return local.jobs().stream().filter(j -> j.spec().jobId().equals(jobId)).findFirst().orElseThrow().runners();
    }

    @Test
    void aLocalRunKilledHalfwayIsFinishedByBeamExactlyOnce() throws Exception {
        String project = BeamEmulator.freshProject(server, "local-then-beam");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", ENTITIES);
        long readWhenKilled;
        try (ChildCli local = ChildCli.start(dir, ConnectionSpec.emulator(BeamEmulator.host(project), project, server),
                List.of("run", "--kind", "Item", "--mapper", mapper().toString(), "--job-id", "moved", "--workers", "4",
                        "--page-size", "200", ChildCli.holdFlag(server),
                        // about 1,000 entities: a chunk holds 23 keys under the legacy emulator's 25 entity groups, a
                        // whole page where there is no such limit
                        server.limits().maxEntityGroups() > 0 ? "40" : "5"))) {
            local.awaitHeld();
            local.kill();
            readWhenKilled = read(datastore, "moved");
        }
        assertThat(readWhenKilled).isBetween(1L, ENTITIES - 1L);

        // the killed runner's lease may still be live: Beam takes the job over at once
        BeamEmulator.Run beam = BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper(), "moved", "--takeOver=true"));
        assertThat(beam.exit()).as(beam.out() + beam.err()).isZero();
        assertThat(beam.out()).contains("Job moved: ").contains(" done in ");
        assertIncrementedOnce(datastore, "moved");
        assertThat(runners(datastore, "moved")).containsExactly(JobPlans.LOCAL, PipelineJobs.BEAM);
    }

    @Test
    @OnlyOn(value = ServerType.EMULATOR, byDefault = true,
            why = "time: a job handed between the runners on the Firestore emulator runs in "
                    + "aLocalRunKilledHalfwayIsFinishedByBeamExactlyOnce")
    void aBeamRunKilledHalfwayIsFinishedByRunResumeExactlyOnce() throws Exception {
        String project = BeamEmulator.freshProject(server, "beam-then-local");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", ENTITIES);
        BeamEmulator.killAfter(datastore, "handed", BeamEmulator.pipelineArgs(project, mapper(), "handed"),
                ENTITIES / 3, ENTITIES, dir.resolve("beam.log"));

        String[] resumed = cli(project, "run", "--resume", "handed", "--take-over", "--force");
        assertThat(resumed[0]).as(resumed[1] + resumed[2]).isEqualTo("0");
        assertThat(resumed[1]).contains("Job handed done: read " + String.format("%,d", ENTITIES));
        assertIncrementedOnce(datastore, "handed");
        assertThat(runners(datastore, "handed")).containsExactly(PipelineJobs.BEAM, JobPlans.LOCAL);
    }

    @Test
    @OnlyOn(value = ServerType.EMULATOR, byDefault = true,
            why = "time: a job handed between the runners on the Firestore emulator runs in "
                    + "aLocalRunKilledHalfwayIsFinishedByBeamExactlyOnce")
    void aLocalRunAndABeamPipelineOnOneJobAtOnceApplyEveryEntityOnce() throws Exception {
        String project = BeamEmulator.freshProject(server, "both-at-once");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", ENTITIES);
        CompletableFuture<BeamEmulator.Run> beam = CompletableFuture.supplyAsync(() -> {
            try {
                // 40 ms a call: past the 2,000 mark the pipeline needs 7 s or more for the rest (commits of at most
                // 23 keys, three calls each, 4 ranges at once), so the local runner joins it on any machine
                return BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper(), "shared", "--faults=latency=40"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (read(datastore, "shared") < 2_000 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        // the pipeline holds the lease: the local runner gets past it, and both go on at once
        String[] local = cli(project, "run", "--resume", "shared", "--take-over", "--force");
        BeamEmulator.Run pipeline = beam.get(600, TimeUnit.SECONDS);
        assertThat(local[0]).as(local[1] + local[2]).isEqualTo("0");
        assertThat(pipeline.exit()).as(pipeline.out() + pipeline.err()).isZero();
        assertIncrementedOnce(datastore, "shared");
        assertThat(runners(datastore, "shared")).containsExactly(PipelineJobs.BEAM, JobPlans.LOCAL);
    }
}
