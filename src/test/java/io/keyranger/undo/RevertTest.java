package io.keyranger.undo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.KeyRangerException;
import io.keyranger.executor.store.JobStore;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.UndoKept;
import io.keyranger.formats.undo.UndoRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/** {@code keyranger revert} against the emulator: what comes back, what is refused, what a dry run and pruning say. */
@OnDataEmulators
class RevertTest {
    @Parameter
    ServerType server;
    private static final int ENTITIES = 300;

    @TempDir
    Path dir;

    private ConnectionSpec conn;
    private Datastore datastore;
    private InProcessCli cli;
    private Map<Key, Entity> seeded;

    @BeforeEach
    void seed() {
        conn = SharedEmulator.freshProject(server, "revert");
        datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Rich", ENTITIES));
        cli = new InProcessCli(dir, conn);
        seeded = RichEntities.read(datastore, "", "Rich");
        assertThat(seeded).hasSize(ENTITIES);
    }

    private InProcessCli.Result run(String mapperJson, String jobId, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "--kind", "Rich", "--mapper", cli.mapper(mapperJson).toString(),
                "--job-id", jobId, "--page-size", "40", "--workers", "4"));
        args.addAll(List.of(more));
        return cli.run(args.toArray(new String[0]));
    }

    private static void assertOk(InProcessCli.Result result) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    }

    @Test
    void anIncrementComesBackExactlyAndItsRevertCanBeRevertedToo() throws Exception {
        assertOk(run("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":5}", "inc"));
        Map<Key, Entity> incremented = RichEntities.read(datastore, "", "Rich");
        assertThat(incremented.values()).allMatch(e -> e.getLong("balance") == seeded.get(e.getKey())
                .getLong("balance") + 5);

        InProcessCli.Result dry = cli.run("revert", "inc", "--dry-run", "--sample", "10");
        assertOk(dry);
        assertThat(dry.out()).contains("counter restored += 10").contains("balance");
        // the sample is of entities, whatever number of undo records their before-images are kept in
        assertThat(dry.out()).contains("Dry run on 10 entities;")
                .contains("Whole job, over " + ENTITIES + " entities (exact");
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(incremented);

        InProcessCli.Result revert = cli.run("revert", "inc", "--job-id", "undo-inc", "--page-size", "40");
        assertOk(revert);
        assertThat(revert.out()).contains("restored: " + ENTITIES);
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(seeded);

        assertOk(cli.run("revert", "undo-inc", "--job-id", "undo-undo-inc"));
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(incremented);
    }

    @Test
    void aRevertedJobIsListedAsRevertedByItsRevertAndWhenNotAsRevertible() throws Exception {
        assertOk(run("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":5}", "inc-listed"));
        assertOk(cli.run("revert", "inc-listed", "--job-id", "undo-listed", "--page-size", "40"));
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(seeded);

        String line = jobLine(cli.run("jobs"), "inc-listed ");
        assertThat(line).containsPattern("done; reverted by undo-listed at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ; "
                + "undo kept until").doesNotContain("revertible");
    }

    @Test
    void aRevertThatKeptLaterChangesSaysTheJobWasRevertedOnlyInPart() throws Exception {
        assertOk(run("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":5}", "inc-part"));
        Entity changed = RichEntities.read(datastore, "", "Rich").values().iterator().next();
        datastore.put(Entity.newBuilder(changed).set("balance", -1L).build());
        InProcessCli.Result revert = cli.run("revert", "inc-part", "--job-id", "undo-part", "--page-size", "40");
        assertThat(revert.exitCode()).as(revert.err()).isNotZero();
        assertThat(revert.err()).contains("1 entity changed since job inc-part");

        String line = jobLine(cli.run("jobs"), "inc-part ");
        assertThat(line).contains("done; reverted in part by undo-part at ")
                .contains(": 1 entity has changed since the job and keeps its value (revert --force inc-part "
                        + "restores it too)").doesNotContain("revertible");
    }

    /** The line of {@code jobs} that lists the job whose id (and a space) starts it. */
    private static String jobLine(InProcessCli.Result jobs, String idAndSpace) {
        assertOk(jobs);
        return jobs.out().lines().filter(l -> l.startsWith(idAndSpace)).findFirst()
                .orElseThrow(() -> new AssertionError("no line for " + idAndSpace + " in\n" + jobs.out()));
    }

    @Test
    void aCopyIsTakenBackByDeletingWhatItCreated() throws Exception {
        Entity already = Entity.newBuilder(datastore.newKeyFactory().setNamespace("copy").setKind("Rich")
                .newKey("user-000002")).set("kept", "mine").build();
        datastore.put(already);
        assertOk(run("{\"template\":\"copy\",\"toNamespace\":\"copy\"}", "cp"));
        assertThat(RichEntities.read(datastore, "copy", "Rich")).hasSize(ENTITIES);

        assertOk(cli.run("revert", "cp"));
        assertThat(RichEntities.read(datastore, "copy", "Rich")).as("the entity the copy overwrote is back, the "
                + "others it created are gone").containsExactly(Map.entry(already.getKey(), already));
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(seeded);
    }

    @Test
    void aJobRunWithNoUndoSaysSoKeepsNothingAndCannotBeReverted() throws Exception {
        InProcessCli.Result job = run("{\"template\":\"set\",\"property\":\"tier\",\"value\":\"gold\"}", "no-undo",
                "--no-undo");
        assertOk(job);
        assertThat(job.err()).contains("no undo: this job cannot be reverted");
        assertThat(UndoKept.records(datastore, "no-undo")).isEmpty();
        assertThat(cli.run("jobs").out()).contains("no undo (--no-undo): cannot be reverted");

        InProcessCli.Result revert = cli.run("revert", "no-undo");
        assertThat(revert.exitCode()).isNotZero();
        assertThat(revert.err()).contains("was run with --no-undo").doesNotContain("\tat ");
        assertThat(RichEntities.read(datastore, "", "Rich").values()).allMatch(e -> e.getString("tier").equals("gold"));
    }

    @Test
    void pruningRemovesUndoRecordsAndSaysWhichAfterwhichTheJobCannotBeReverted() throws Exception {
        assertOk(run("{\"template\":\"delete\",\"where\":\"tier == 'pro'\"}", "del-pro"));
        assertThat(undoImages("del-pro")).isEqualTo(ENTITIES / 3);
        assertThat(cli.run("jobs").out()).contains("revertible; undo kept until");

        InProcessCli.Result kept = cli.run("jobs", "--prune");
        assertOk(kept);
        assertThat(kept.out()).contains("Pruned 0 jobs");
        InProcessCli.Result pruned = cli.run("jobs", "--prune", "--keep-days", "0");
        assertOk(pruned);
        assertThat(pruned.out()).contains("Removed the undo records of del-pro (" + ENTITIES / 3
                + " entities changed, in ");
        assertThat(UndoKept.records(datastore, "del-pro")).isEmpty();

        InProcessCli.Result revert = cli.run("revert", "del-pro");
        assertThat(revert.exitCode()).isNotZero();
        assertThat(revert.err()).contains("undo records were removed");
    }

    private static final String INCREMENT = "{\"template\":\"increment\",\"property\":\"balance\",\"amount\":5}";

    @Test
    void aPruneLeavesAJobWhoseRevertHasNotEndedDoneAndRemovesItsRecordsOnceItHas() throws Exception {
        assertOk(run(INCREMENT, "inc"));
        int records = UndoKept.records(datastore, "inc").size();
        assertThat(records).isPositive();
        // a revert between its fence and its launch: the job names it, and no job of it exists yet
        Session session = Session.open(conn);
        RevertFence.take(datastore, session.order(), session.limits(), JobUndo.revertible(datastore, "inc"), "inc",
                "revert-starting", line -> { });
        InProcessCli.Result kept = cli.run("jobs", "--prune", "--keep-days", "0");
        assertOk(kept);
        assertThat(kept.out()).contains("Pruned 0 jobs").contains("Kept the undo records of inc: its revert "
                + "revert-starting has not ended done").contains("'keyranger run --resume revert-starting'");
        assertThat(UndoKept.records(datastore, "inc")).hasSize(records);

        // the revert run again, to its end: now the job's records may go
        assertOk(cli.run("revert", "inc", "--job-id", "undo-inc"));
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(seeded);
        InProcessCli.Result pruned = cli.run("jobs", "--prune", "--keep-days", "0");
        assertOk(pruned);
        assertThat(pruned.out()).contains("Removed the undo records of inc (" + ENTITIES + " entities changed, in ");
        assertThat(UndoKept.records(datastore, "inc")).isEmpty();
    }

    @Test
    void aRevertThatPassedItsChecksBeforeAPruneIsRefusedAtItsFenceAndTakesNothing() throws Exception {
        assertOk(run(INCREMENT, "inc"));
        List<JobStore.StoredJob> checked = JobUndo.revertible(datastore, "inc"); // revertible before the prune
        assertOk(cli.run("jobs", "--prune", "--keep-days", "0"));
        assertThat(UndoKept.records(datastore, "inc")).isEmpty();

        Session session = Session.open(conn);
        assertThatThrownBy(() -> RevertFence.take(datastore, session.order(), session.limits(), checked, "inc",
                "revert-late", line -> { })).isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("undo records were removed");
        assertThat(new JobStore(datastore).findJob("inc").revertedBy()).isNull();
    }

    @Test
    void aPruneThatStoppedAfterItsMarkHasTheRecordsItLeftRemovedByTheNextOne() throws Exception {
        assertOk(run(INCREMENT, "inc"));
        // what a prune leaves when it stops between its mark and its deletes
        Key job = new JobStore(datastore).jobKey("inc");
        datastore.put(Entity.newBuilder(datastore.get(job)).set(JobStore.UNDO_REMOVED_AT, Timestamp.now())
                .set(JobStore.UNDO_REMOVING, true).build());
        assertThat(UndoKept.records(datastore, "inc")).isNotEmpty();

        InProcessCli.Result pruned = cli.run("jobs", "--prune", "--keep-days", "0");
        assertOk(pruned);
        assertThat(pruned.out()).contains("Removed the undo records of inc (" + ENTITIES + " entities changed, in ");
        assertThat(UndoKept.records(datastore, "inc")).isEmpty();
        assertThat(cli.run("jobs", "--prune", "--keep-days", "0").out()).contains("Pruned 0 jobs");
    }

    @Test
    void anImportIsTakenBackItsNewEntitiesDeletedAndWhatItOverwroteRestored() throws Exception {
        List<String> lines = new ArrayList<>();
        for (Entity e : seeded.values().stream().limit(10).toList()) {
            lines.add(EntityCodec.encode(Entity.newBuilder(e).set("balance", -5L).build())
                    .toString());
        }
        for (int i = 0; i < 40; i++) {
            lines.add(EntityCodec.encode(Entity.newBuilder(datastore.newKeyFactory()
                    .setKind("Rich").newKey("imported-" + i)).set("balance", (long) i).build()).toString());
        }
        Path file = dir.resolve("import.jsonl");
        Files.write(file, lines);
        assertOk(run("{\"template\":\"import\",\"file\":\"" + file + "\"}", "imp"));
        assertThat(RichEntities.read(datastore, "", "Rich")).hasSize(ENTITIES + 40);
        assertThat(undoImages("imp")).isEqualTo(50);
        // its check found each key once in the file: a batch a commit, as a job over the kind keeps
        assertThat(UndoKept.records(datastore, "imp")).hasSizeLessThan(50)
                .allMatch(r -> UndoRecords.isBatch(r.getKey()));

        InProcessCli.Result revert = cli.run("revert", "imp");
        assertOk(revert);
        assertThat(revert.out()).contains("restored: 50");
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(seeded);
    }

    @Test
    void aJobOverSeveralKindsIsRevertedKindAfterKind() throws Exception {
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Other", 60));
        Map<Key, Entity> others = RichEntities.read(datastore, "", "Other");
        InProcessCli.Result job = cli.run("run", "--kind", "Rich,Other", "--mapper", cli.mapper(
                "{\"template\":\"remove-property\",\"property\":\"note\"}").toString(), "--job-id", "two");
        assertOk(job);
        assertThat(RichEntities.read(datastore, "", "Other").values()).noneMatch(e -> e.contains("note"));

        InProcessCli.Result revert = cli.run("revert", "two", "--job-id", "undo-two");
        assertOk(revert);
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(seeded);
        assertThat(RichEntities.read(datastore, "", "Other")).isEqualTo(others);
    }

    /** The before-images job {@code jobId} kept, each entity once. */
    private long undoImages(String jobId) {
        List<Key> targets = UndoKept.targets(datastore, jobId);
        assertThat(targets).doesNotHaveDuplicates();
        return targets.size();
    }
}
