package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ServerType;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RestoreMode;
import io.keyranger.keys.KeyFormat;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Undoing a window of damage as a Beam pipeline on the DirectRunner, on the Firestore emulator in Datastore mode (the
 * one that keeps the past): {@code RestoreSpec.fromPast(T0, T1, remove added)} as the pipeline's job puts every entity
 * back as the emulator's own lookups at T0 answer, deletes those added in the window, leaves the writes made after T1
 * alone, and a local {@code revert} of the Beam job gives back exactly what was there before the restore.
 */
class BeamRestoreAsOfTest {
    private static final int SEEDED = 400;

    @TempDir
    Path dir;

    @Test
    void aRestoreAsOfUntilOnTheDirectRunnerUndoesTheWindowLeavesLaterWritesAloneAndIsRevertedExactly()
            throws Exception {
        String project = BeamEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "beam-asof");
        ConnectionSpec conn = ConnectionSpec.emulator(BeamEmulator.host(project), project,
                ServerType.FIRESTORE_EMULATOR);
        Datastore datastore = BeamEmulator.connect(project);
        List<Entity> seeded = RichEntities.of(datastore, "Item", SEEDED);
        SharedEmulator.putAll(datastore, seeded);
        Instant t0 = moment();

        // every 10th deleted, every 10th (offset 5) changed, 20 added: ids and names, in every cell
        List<Key> deleted = new ArrayList<>();
        List<Entity> changed = new ArrayList<>();
        for (int i = 0; i < SEEDED; i++) {
            Entity e = seeded.get(i);
            if (i % 10 == 0) {
                deleted.add(e.getKey());
            } else if (i % 10 == 5) {
                changed.add(Entity.newBuilder(e).set("balance", -i).remove("note").set("damaged", true).build());
            }
        }
        List<Entity> added = new ArrayList<>();
        KeyFactory keys = datastore.newKeyFactory().setKind("Item");
        for (int j = 0; j < 20; j++) {
            added.add(Entity.newBuilder(j % 2 == 0 ? keys.newKey(3_000_000_000L + j) : keys.newKey("added-" + j))
                    .set("balance", j).build());
        }
        datastore.delete(deleted.toArray(new Key[0]));
        SharedEmulator.putAll(datastore, changed);
        SharedEmulator.putAll(datastore, added);
        Instant t1 = moment();
        List<Entity> later = new ArrayList<>();
        for (int i = 0; i < changed.size(); i += 8) {
            later.add(Entity.newBuilder(changed.get(i)).set("balance", 1_000_000 + i).set("fixedByHand", true)
                    .build());
        }
        SharedEmulator.putAll(datastore, later);
        assertThat(deleted).hasSize(40);
        assertThat(changed).hasSize(40);
        assertThat(later).hasSize(5);
        Map<Key, Entity> beforeRestore = RichEntities.read(datastore, "", "Item");
        assertThat(beforeRestore).hasSize(SEEDED - 40 + 20);

        Map<Key, Entity> expected = new HashMap<>(RichEntities.readAt(datastore, "", "Item", t0));
        assertThat(expected).as("the emulator's own answer at T0").hasSize(SEEDED);
        later.forEach(e -> expected.put(e.getKey(), e));

        JobSpec job = RestoreSpec.fromPast(PointInTime.at(t0), PointInTime.at(t1), true, "", "Item",
                RestoreMode.OVERWRITE, null, null, true).job("BR");
        Path mapper = new InProcessCli(dir, null).mapper(job.mapper().toJson());
        BeamEmulator.Run run = BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper, "BR"));
        assertThat(run.exit()).as("done, the later writes left alone: restore's exit 7 " + run.out() + run.err())
                .isEqualTo(BeamMain.LEFT_ALONE);
        assertThat(run.out()).contains("Job BR: import over Item done");

        Map<Key, Entity> restored = RichEntities.read(datastore, "", "Item");
        assertThat(restored.keySet()).as("T0's keys, none added in the window").isEqualTo(expected.keySet());
        expected.forEach((key, entity) -> assertThat(restored.get(key)).as(KeyFormat.format(key)).isEqualTo(entity));
        later.forEach(e -> assertThat(restored.get(e.getKey())).as("a later write left alone: %s",
                KeyFormat.format(e.getKey())).isEqualTo(e));
        Map<String, Long> totals = ShardedCounter.existing(datastore, "job:BR").totals();
        assertThat(totals).as("each key decided once").containsEntry("read", (long) SEEDED + 20)
                .containsEntry("written", 75L).containsEntry("deleted", 20L)
                .containsEntry("restored (deleted in the window)", 40L)
                .containsEntry("reverted (changed in the window)", 35L)
                .containsEntry("added in the window, removed", 20L)
                .containsEntry("skipped: written again after --until", 5L);

        InProcessCli.Result revert = new InProcessCli(dir, conn).run("revert", "BR");
        assertThat(revert.exitCode()).as(revert.out() + revert.err()).isZero();
        Map<Key, Entity> reverted = RichEntities.read(datastore, "", "Item");
        assertThat(reverted.keySet()).isEqualTo(beforeRestore.keySet());
        beforeRestore.forEach((key, entity) -> assertThat(reverted.get(key)).as(KeyFormat.format(key))
                .isEqualTo(entity));
    }

    @Test
    void aKindDeletedWholeIsRestoredFromThePastOnTheDirectRunner() throws Exception {
        String project = BeamEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "beam-asof-empty");
        Datastore datastore = BeamEmulator.connect(project);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Item", 20));
        Instant t0 = moment();
        Map<Key, Entity> expected = RichEntities.readAt(datastore, "", "Item", t0);
        assertThat(expected).as("the emulator's own answer at T0").hasSize(20);
        datastore.delete(expected.keySet().toArray(new Key[0]));
        assertThat(RichEntities.read(datastore, "", "Item")).as("the live kind is empty").isEmpty();

        JobSpec job = RestoreSpec.fromPast(PointInTime.at(t0), null, false, "", "Item", RestoreMode.OVERWRITE, null,
                null, true).job("BE");
        Path mapper = new InProcessCli(dir, null).mapper(job.mapper().toJson());
        BeamEmulator.Run run = BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper, "BE"));
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(RichEntities.read(datastore, "", "Item")).as("entity by entity as at T0").isEqualTo(expected);
    }

    /** A moment between two writes, clear of both. */
    private static Instant moment() throws InterruptedException {
        Thread.sleep(20);
        Instant now = Instant.now();
        Thread.sleep(20);
        return now;
    }
}
