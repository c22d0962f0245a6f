package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import io.keyranger.cli.KeyRangerCli;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobListener;
import io.keyranger.job.NodeStatus;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.OnlyOn;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * KeyRanger jobs as Beam pipelines on the DirectRunner against the real emulator: with failed calls and lost commit
 * answers injected, workers that die after a commit (the pipeline fails and is rerun under the same job id), and a
 * pipeline killed with SIGKILL and rerun, every entity's effect is applied exactly once, checked entity by entity.
 */
@OnDataEmulators
class BeamPipelineTest {
    @Parameter
    ServerType server;
    private static final int ENTITIES = 3_000;
    private static final String FAULTS = "rate=0.05,lost=0.05,seed=11";
    /**
     * As above, with 40 ms on every call, for the first run. The DirectRunner checkpoints a range once it has run 1 s
     * (or output 100 times), if the range has keys it has not claimed yet. A starting range here is about 750 keys in
     * pages of 200, and a transaction touches at most 25 entity groups, so a page is at least 8 commits of three calls
     * (begin, lookup, commit) and its query: 1 s or more. So at 1 s every starting range is still on its first page
     * and is checkpointed, on any machine, and no worker has died yet (after 20 commits, 2.4 s or more). Three threads
     * (not one per core) share the job's 130 or more commits, so one of them reaches 20 on a machine of many cores too.
     * Without the latency a fast machine finished its ranges in under 1 s and nothing was checkpointed. The rerun runs
     * without it.
     */
    private static final String SLOW_FAULTS = FAULTS + ",latency=40";

    @TempDir
    Path dir;

    private String[] args(String project, Path mapper, String jobId, String... more) {
        return BeamEmulator.pipelineArgs(project, mapper, jobId, more);
    }

    private Path mapper(String json) throws Exception {
        Path file = Files.createTempFile(dir, "mapper", ".json");
        Files.writeString(file, json);
        return file;
    }

    @Test
    void aBeamJobKeepsUndoRecordsAndTheLocalRunnerRevertsIt() throws Exception {
        String project = BeamEmulator.freshProject(server, "undo");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", 500);
        Map<Key, Entity> seeded = items(datastore);
        BeamEmulator.Run job = BeamEmulator.run(args(project, mapper("{\"template\":\"set\",\"property\":"
                + "\"color\",\"value\":\"grey\"}"), "paint", "--faults=" + FAULTS));
        assertThat(job.exit()).as(job.out() + job.err()).isZero();
        assertThat(items(datastore).values()).allMatch(e -> e.getString("color").equals("grey"));
        assertThat(totals(datastore, "paint")).containsEntry("undo images", 500L);

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(dir, Map.of(),
                request -> { }), new PrintWriter(out), new PrintWriter(err), "revert", "paint",
                "--emulator-host", BeamEmulator.host(project), "--project", project);
        assertThat(code).as(out + "" + err).isZero();
        assertThat(items(datastore)).isEqualTo(seeded);
    }

    /**
     * A pipeline done but for an entity it could not write (its copy would be over 1 MiB) exits 8, as the command
     * line's run does, and says so; every other entity is copied.
     */
    @Test
    @OnlyOn(value = ServerType.EMULATOR, byDefault = true, why = "time: the rule is the command line's, the same on "
            + "both emulators, and BadInputTest checks it there")
    void aPipelineDoneButForAnEntityItCouldNotWriteExitsEight() throws Exception {
        String project = BeamEmulator.freshProject(server, "big");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", 12);
        Entity big = Entity.newBuilder(datastore.newKeyFactory().setKind("Item").newKey(7L)).set("body",
                StringValue.newBuilder("x".repeat(1_048_576 - 1_000)).setExcludeFromIndexes(true).build()).build();
        datastore.put(big);
        String longKind = "K".repeat(1_400); // the copy's key alone takes it over the limit

        BeamEmulator.Run copy = BeamEmulator.run(args(project, mapper("{\"template\":\"copy\",\"toKind\":\""
                + longKind + "\"}"), "copybig"));

        assertThat(copy.exit()).as(copy.out() + copy.err()).isEqualTo(BeamMain.NOT_ALL_WRITTEN);
        assertThat(copy.err()).contains("keyranger-beam: 1 entity the job names could not be written and is "
                + "unchanged");
        List<Key> copies = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind(longKind).build()).forEachRemaining(copies::add);
        assertThat(copies).as("what the emulator holds").hasSize(12).noneMatch(k -> Long.valueOf(7).equals(k.getId()));
    }

    private static Map<Key, Entity> items(Datastore datastore) {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Item").build())
                .forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }

    @ParameterizedTest
    @OnlyOn(value = ServerType.EMULATOR, byDefault = true,
            why = "time: Beam runs on the Firestore emulator in this class's undo test and CrossRunnerTest, and "
                    + "exactly once under faults there in FaultsExactlyOnceTest")
    @ValueSource(strings = {
        "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}",
        "{\"template\":\"copy\",\"toKind\":\"ItemCopy\"}",
        "{\"template\":\"delete\"}",
        "{\"template\":\"count-by\",\"property\":\"color\"}"})
    void workersThatDieAfterCommitsAndFaultyCallsStillApplyEveryEntityExactlyOnce(String json) throws Exception {
        String project = BeamEmulator.freshProject(server, "beam");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", ENTITIES);
        Path mapper = mapper(json);
        long checkpoints = BeamKeyRangeTracker.CHECKPOINTS.get();

        RangeRun.THROWN.clear();
        BeamEmulator.Run first = BeamEmulator.run(args(project, mapper, "job1", "--faults=" + SLOW_FAULTS,
                "--failAfterCommits=20", "--failures=1", "--targetParallelism=3"));
        assertThat(first.exit()).as(first.out() + first.err()).isEqualTo(1);
        assertThat(first.out()).contains("failed").contains("Injected fault");
        assertThat(first.err()).contains("the pipeline failed");

        BeamEmulator.Run rerun = BeamEmulator.run(args(project, mapper, "job1", "--faults=" + FAULTS));
        assertThat(rerun.exit()).as(rerun.out() + rerun.err()).isZero();
        assertThat(rerun.out()).contains("Job job1: ").contains(" done in ");
        assertThat(BeamKeyRangeTracker.CHECKPOINTS.get() - checkpoints).as("DirectRunner checkpoints").isPositive();
        verify(datastore, MapperSpec.parse(json).template(), totals(datastore, "job1"));
    }

    @Test
    @OnlyOn(value = ServerType.EMULATOR, byDefault = true,
            why = OnlyOn.HELD_LOCKS + "KillAndResumeTest, and Beam there in CrossRunnerTest's local run killed halfway")
    void aPipelineKilledWithSigkillFinishesExactlyOnceWhenRerunUnderTheSameJobId() throws Exception {
        String project = BeamEmulator.freshProject(server, "killed");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", ENTITIES);
        Path mapper = mapper("{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}");
        long before = BeamEmulator.killAfter(datastore, "killed", args(project, mapper, "killed"), 300, ENTITIES,
                dir.resolve("killed.log"));

        // the killed launcher's lease names a process of this machine that is gone: the rerun takes the job at once
        BeamEmulator.Run rerun = BeamEmulator.run(args(project, mapper, "killed"));
        assertThat(rerun.exit()).as(rerun.out() + rerun.err()).isZero();
        assertThat(before).isLessThan(ENTITIES);
        verify(datastore, "increment", totals(datastore, "killed"));

        // the job is in the same bookkeeping as local jobs: 'keyranger jobs' lists it
        AdaptiveSplitExecutor local = new AdaptiveSplitExecutor(
                datastore, server.keyOrder(), server.limits());
        assertThat(local.jobs()).anySatisfy(job -> {
            assertThat(job.spec().jobId()).isEqualTo("killed");
            assertThat(job.describeStatus()).isEqualTo("done (on beam)");
        });
        assertThat(local.totals("killed")).containsEntry("read", (long) ENTITIES);
        // the app's Run tab reads a stored job's ranges: a Beam job's are its cells, all done. The Firestore emulator
        // has no __scatter__ to plan cells from: there they are the four shards' starting ranges
        assertThat(local.nodes("killed")).hasSizeGreaterThan(server == ServerType.EMULATOR ? 16 : 3)
                .allSatisfy(node -> assertThat(node.status()).isEqualTo(NodeStatus.DONE));
        // launched without waiting (as the Flex Template does), the pipeline's last step records the job's end itself
        Path count = mapper("{\"template\":\"count\"}");
        {
            BeamEmulator.Run launched = BeamEmulator.run(args(project, count, "no-wait", "--waitUntilFinish=false"));
            assertThat(launched.exit()).as(launched.out() + launched.err()).isZero();
            assertThat(launched.out()).contains("launched on DirectRunner");
            assertThat(local.jobs()).anySatisfy(job -> {
                assertThat(job.spec().jobId()).isEqualTo("no-wait");
                assertThat(job.describeStatus()).isEqualTo("done (on beam)");
            });
            assertThat(local.totals("no-wait")).containsEntry("read", (long) ENTITIES);
        }
        // a local resume of the Beam job finds it done and runs nothing again
        assertThat(local.resume("killed", JobListener.NONE).await().message())
                .contains("is done already");
    }

    private static Map<String, Long> totals(Datastore datastore, String jobId) {
        return BeamEmulator.totals(datastore, jobId);
    }

    static void verify(Datastore datastore, String template, Map<String, Long> totals) {
        verify(datastore, template, totals, ENTITIES);
    }

    /** Every one of {@code entities} Items changed once by {@code template}, and the job's totals say so. */
    static void verify(Datastore datastore, String template, Map<String, Long> totals, int entities) {
        List<Entity> items = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Item").build()).forEachRemaining(items::add);
        assertThat(totals).containsEntry("read", (long) entities);
        switch (template) {
            case "increment" -> {
                assertThat(items).hasSize(entities).allMatch(e -> e.getLong("n") == 1);
                assertThat(totals).containsEntry("written", (long) entities);
            }
            case "copy" -> {
                List<Key> copied = new ArrayList<>();
                datastore.run(Query.newKeyQueryBuilder().setKind("ItemCopy").build()).forEachRemaining(copied::add);
                assertThat(copied).hasSize(entities);
                assertThat(totals).containsEntry("written", (long) entities);
            }
            case "delete" -> {
                assertThat(items).isEmpty();
                assertThat(totals).containsEntry("deleted", (long) entities);
            }
            case "count-by" -> {
                Map<String, Long> histogram = new HashMap<>();
                totals.forEach((field, value) -> {
                    String bucket = Mappers.countByBucket(field);
                    if (bucket != null) {
                        histogram.merge(bucket, value, Long::sum);
                    }
                });
                assertThat(histogram).hasSize(BeamEmulator.COLORS.length).allSatisfy((bucket, count) ->
                        assertThat(count).isEqualTo(entities / BeamEmulator.COLORS.length));
            }
            default -> throw new AssertionError(template);
        }
    }
}
