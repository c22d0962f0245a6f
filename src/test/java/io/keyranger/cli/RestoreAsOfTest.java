package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.keys.KeyFormat;
import io.keyranger.support.ChildCli;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Undoing a window of damage that KeyRanger did not do, on the Firestore emulator in Datastore mode (the one that keeps
 * the past), through the command line: 5,000 mixed entities seeded at T0, 500 deleted, 500 changed and 100 added by
 * T1, then 50 of the changed written again (good later writes). {@code diff --as-of T0} lists exactly the removed,
 * changed and added keys; {@code restore --as-of T0 --until T1 --remove-added}
 * is predicted by its dry run, killed with SIGKILL mid-way, resumed and exact (entity by entity against the emulator's
 * own lookups at T0, the later writes untouched and named), then reverted exactly.
 */
class RestoreAsOfTest {
    private static final int SEEDED = 5_000;

    @TempDir
    Path dir;

    @Test
    void aRestoreUntilT1KilledMidwayIsResumedExactLeavesLaterWritesAloneAndIsRevertedExactly() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "restore-asof");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = RichEntities.of(datastore, "Item", SEEDED);
        SharedEmulator.putAll(datastore, seeded);
        Instant t0 = moment();

        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < SEEDED; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(46)); // damage spread over ids, names and ancestors alike
        List<Key> deleted = new ArrayList<>();
        List<Entity> changed = new ArrayList<>();
        for (int n = 0; n < 1_000; n++) {
            Entity e = seeded.get(order.get(n));
            if (n < 500) {
                deleted.add(e.getKey());
            } else {
                changed.add(Entity.newBuilder(e).set("balance", -n).remove("note").set("damaged", true).build());
            }
        }
        List<Entity> added = new ArrayList<>();
        for (int j = 0; j < 100; j++) {
            var keys = datastore.newKeyFactory().setKind("Item");
            added.add(Entity.newBuilder(j % 2 == 0 ? keys.newKey(3_000_000_000L + j) : keys.newKey("added-" + j))
                    .set("balance", j).build());
        }
        for (int i = 0; i < deleted.size(); i += 500) {
            datastore.delete(deleted.subList(i, Math.min(deleted.size(), i + 500)).toArray(new Key[0]));
        }
        SharedEmulator.putAll(datastore, changed);
        SharedEmulator.putAll(datastore, added);
        Instant t1 = moment();
        List<Entity> later = new ArrayList<>();
        for (int i = 0; i < changed.size(); i += 10) {
            later.add(Entity.newBuilder(changed.get(i)).set("balance", 1_000_000 + i).set("fixedByHand", true)
                    .build());
        }
        SharedEmulator.putAll(datastore, later);
        assertThat(later).hasSize(50);
        Map<Key, Entity> beforeRestore = RichEntities.read(datastore, "", "Item");
        assertThat(beforeRestore).hasSize(SEEDED - 500 + 100);

        Map<Key, Entity> expected = new HashMap<>(RichEntities.readAt(datastore, "", "Item", t0));
        assertThat(expected).as("the emulator's own answer at T0").hasSize(SEEDED);
        later.forEach(e -> expected.put(e.getKey(), e));

        InProcessCli cli = new InProcessCli(dir, conn);
        Path lists = dir.resolve("diff");
        InProcessCli.Result diff = cli.run("diff", "--as-of", t0.toString(), "--kind", "Item", "--keys-out",
                lists.toString());
        assertThat(diff.exitCode()).as(diff.out() + diff.err()).isZero();
        assertThat(diff.out()).as(diff.out()).containsPattern("same\\s+4,?000\\b")
                .containsPattern("changed\\s+500\\b").containsPattern("removed\\s+500\\b")
                .containsPattern("added\\s+100\\b");
        assertThat(KeysFile.read(lists.resolve("removed.keys"), conn.projectId(), "")).as("removed since T0")
                .isEqualTo(Set.copyOf(deleted));
        assertThat(KeysFile.read(lists.resolve("changed.keys"), conn.projectId(), "")).as("changed since T0, the 50 "
                + "written again too").isEqualTo(changed.stream().map(Entity::getKey).collect(Collectors.toSet()));
        assertThat(KeysFile.read(lists.resolve("added.keys"), conn.projectId(), "")).as("added since T0")
                .isEqualTo(added.stream().map(Entity::getKey).collect(Collectors.toSet()));

        List<String> restore = List.of("restore", "--kind", "Item", "--as-of", t0.toString(), "--until",
                t1.toString(), "--remove-added", "--job-id", "R");
        InProcessCli.Result dry = cli.run(with(restore, "--dry-run"));
        assertThat(dry.exitCode()).as(dry.out() + dry.err()).isZero();
        assertThat(dry.out()).as(dry.out()).contains("restored (deleted in the window): 500",
                "reverted (changed in the window): 450", "added in the window, removed: 100",
                "skipped: written again after --until: 50", "already as at the time restored: 4,000",
                "would write back 950, delete 100");
        for (Entity e : later) {
            assertThat(dry.out()).as("named").contains("would leave " + KeyFormat.format(e.getKey())
                    + ": written again after --until");
        }
        assertThat(RichEntities.read(datastore, "", "Item")).as("a dry run writes nothing").isEqualTo(beforeRestore);

        try (ChildCli child = ChildCli.start(dir, conn, List.of(with(restore, "--workers", "8", "--hold-between-chunks",
                "8")))) {
            child.awaitHeld(); // between transactions: KillAndResumeTest kills inside one on this emulator
            child.kill();
        }
        Map<Key, Entity> atKill = RichEntities.read(datastore, "", "Item");
        assertThat(atKill).as("killed mid-way").isNotEqualTo(beforeRestore).isNotEqualTo(expected);

        InProcessCli.Result resumed = cli.run(restore.toArray(new String[0]));
        assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isEqualTo(RevertCommand.EXIT_CONFLICTS);
        assertThat(resumed.err()).contains("50 entities written again after --until kept their later values");
        assertThat(resumed.out() + resumed.err()).contains("written again after --until");
        Map<Key, Entity> restored = RichEntities.read(datastore, "", "Item");
        assertThat(restored.keySet()).isEqualTo(expected.keySet());
        expected.forEach((key, entity) -> assertThat(restored.get(key)).as(KeyFormat.format(key)).isEqualTo(entity));
        Map<String, Long> totals = ShardedCounter.existing(datastore, "job:R").totals();
        assertThat(totals).as("each key decided once").containsEntry("read", (long) SEEDED + 100)
                .containsEntry("written", 950L).containsEntry("deleted", 100L)
                .containsEntry("restored (deleted in the window)", 500L)
                .containsEntry("reverted (changed in the window)", 450L)
                .containsEntry("added in the window, removed", 100L)
                .containsEntry("skipped: written again after --until", 50L);

        InProcessCli.Result revert = cli.run("revert", "R");
        assertThat(revert.exitCode()).as(revert.out() + revert.err()).isZero();
        Map<Key, Entity> reverted = RichEntities.read(datastore, "", "Item");
        assertThat(reverted.keySet()).isEqualTo(beforeRestore.keySet());
        beforeRestore.forEach((key, entity) -> assertThat(reverted.get(key)).as(KeyFormat.format(key))
                .isEqualTo(entity));
    }

    /** A moment between two writes, clear of both. */
    private static Instant moment() throws InterruptedException {
        Thread.sleep(20);
        Instant now = Instant.now();
        Thread.sleep(20);
        return now;
    }

    private static String[] with(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }
}
