package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code restore --as-of T} without {@code --until}, on the Firestore emulator: missing-only brings back only what
 * is gone, skip-changed names what changed since T, overwrite with --remove-added makes the kind exactly as it was at
 * T; and what cannot be done is refused before anything is written.
 */
class RestoreAsOfModesTest {
    @TempDir
    Path dir;

    @Test
    void eachModeRestoresFromThePastAsFromAnExport() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "restore-modes");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = RichEntities.of(datastore, "Acct", 20);
        SharedEmulator.putAll(datastore, seeded);
        Thread.sleep(20);
        String t0 = Instant.now().toString();
        Thread.sleep(20);
        Map<Key, Entity> atT0 = RichEntities.read(datastore, "", "Acct");
        datastore.delete(seeded.get(3).getKey(), seeded.get(7).getKey());
        Entity changedA = Entity.newBuilder(seeded.get(4)).set("balance", -4).build();
        Entity changedB = Entity.newBuilder(seeded.get(8)).set("balance", -8).build();
        Key addedA = datastore.newKeyFactory().setKind("Acct").newKey("added-a");
        Key addedB = datastore.newKeyFactory().setKind("Acct").newKey(77_777_777L);
        datastore.put(changedA, changedB, Entity.newBuilder(addedA).set("balance", 1).build(),
                Entity.newBuilder(addedB).set("balance", 2).build());
        InProcessCli cli = new InProcessCli(dir, conn);

        InProcessCli.Result fresh = cli.run("restore", "--as-of", t0, "--kind", "Acct", "--mode", "overwrite",
                "--remove-added", "--dry-run");
        assertThat(fresh.exitCode()).as("a dry run on fresh damage, 2 keys gone live: " + fresh.out() + fresh.err())
                .isZero();
        assertThat(fresh.out()).contains("Compared 22 keys with live data: would write back 4, delete 2.",
                "added since the time restored, removed: 2", "already as at the time restored: 16",
                "restored (missing): 2", "restored over a later change: 2",
                // the lookups at T0 and live reads (22 each), the keys queries at T0 (20) and live (20: 2 gone, 2
                // added); the 2 gone and the 2 changed put back (the 16 as at T0 left alone) and 2 deleted, their
                // before-images in about one undo record
                "84 reads, 5 writes, 2 deletes", "Writes include about 1 undo record, so that");
        assertThat(RichEntities.read(datastore, "", "Acct")).as("a dry run writes nothing").hasSize(20)
                .doesNotContainKey(seeded.get(3).getKey());

        InProcessCli.Result missing = cli.run("restore", "--as-of", t0, "--kind", "Acct", "--mode", "missing-only",
                "--job-id", "M");
        assertThat(missing.exitCode()).as(missing.out() + missing.err()).isZero();
        Map<Key, Entity> now = RichEntities.read(datastore, "", "Acct");
        assertThat(now).hasSize(22).containsEntry(seeded.get(3).getKey(), atT0.get(seeded.get(3).getKey()))
                .containsEntry(seeded.get(7).getKey(), atT0.get(seeded.get(7).getKey()))
                .containsEntry(changedA.getKey(), changedA).containsEntry(addedA, now.get(addedA));
        assertThat(ShardedCounter.existing(datastore, "job:M").totals()).containsEntry("restored (missing)", 2L)
                .containsEntry("present live, left alone", 2L).containsEntry("written", 2L)
                .containsEntry("already as at the time restored", 16L);

        InProcessCli.Result skip = cli.run("restore", "--as-of", t0, "--kind", "Acct", "--job-id", "S");
        assertThat(skip.exitCode()).as(skip.out() + skip.err()).isEqualTo(RevertCommand.EXIT_CONFLICTS);
        assertThat(skip.err()).contains("2 entities changed since --as-of");
        assertThat(skip.out() + skip.err()).contains("changed since the time restored");
        assertThat(RichEntities.read(datastore, "", "Acct")).as("nothing to write").isEqualTo(now);
        InProcessCli.Result resumed = cli.run("run", "--resume", "S");
        assertThat(resumed.exitCode()).as("run --resume exits as the restore did: " + resumed.out() + resumed.err())
                .isEqualTo(RevertCommand.EXIT_CONFLICTS);
        assertThat(resumed.err()).contains("2 entities changed since --as-of");

        InProcessCli.Result refused = cli.run("restore", "--as-of", t0, "--kind", "Acct", "--remove-added",
                "--job-id", "X");
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.err()).contains("(--remove-added) deletes what did not exist at the time restored")
                .doesNotContain("Exception");

        InProcessCli.Result dry = cli.run("restore", "--as-of", t0, "--kind", "Acct", "--mode", "overwrite",
                "--remove-added", "--dry-run");
        assertThat(dry.exitCode()).as(dry.out() + dry.err()).isZero();
        assertThat(dry.out()).contains("Compared 22 keys with live data: would write back 2, delete 2.",
                "added since the time restored, removed: 2",
                // per key a lookup at T0 and the live read in its transaction (22 each), and the keys queries at T0
                // (20) and live (22, the 2 missing ones back); the 2 changed put back and 2 deleted, their
                // before-images in about one undo record
                "86 reads, 3 writes, 2 deletes");

        InProcessCli.Result overwrite = cli.run("restore", "--as-of", t0, "--kind", "Acct", "--mode", "overwrite",
                "--remove-added", "--job-id", "O");
        assertThat(overwrite.exitCode()).as(overwrite.out() + overwrite.err()).isZero();
        assertThat(RichEntities.read(datastore, "", "Acct")).as("the kind exactly as at T0").isEqualTo(atT0);

        InProcessCli.Result revert = cli.run("revert", "O");
        assertThat(revert.exitCode()).as(revert.out() + revert.err()).isZero();
        assertThat(RichEntities.read(datastore, "", "Acct")).as("reverted exactly").isEqualTo(now);
    }

    @Test
    void whatCannotBeRestoredFromThePastIsRefusedBeforeAnythingIsWritten() throws Exception {
        ConnectionSpec legacy = SharedEmulator.freshProject(ServerType.EMULATOR, "restore-legacy");
        Datastore datastore = SharedEmulator.connect(legacy);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Acct", 5));
        Map<Key, Entity> before = new HashMap<>(RichEntities.read(datastore, "", "Acct"));
        InProcessCli cli = new InProcessCli(dir, legacy);

        InProcessCli.Result noPast = cli.run("restore", "--as-of", "-1m", "--kind", "Acct");
        assertThat(noPast.exitCode()).isNotZero();
        assertThat(noPast.err()).contains("legacy Datastore emulator keeps no past");

        InProcessCli.Result both = cli.run("restore", "--as-of", "-1m", "--export", dir.toString(), "--kind", "Acct");
        assertThat(both.exitCode()).isNotZero();
        assertThat(both.err()).contains("Restore from one source").contains("both were given");

        InProcessCli.Result untilAlone = cli.run("restore", "--export", dir.toString(), "--until", "-1m", "--kind",
                "Acct");
        assertThat(untilAlone.exitCode()).isNotZero();
        assertThat(untilAlone.err()).contains("--until restores from the database's past");

        InProcessCli.Result modeWithUntil = cli.run("restore", "--as-of", "-2m", "--until", "-1m", "--mode",
                "missing-only", "--kind", "Acct");
        assertThat(modeWithUntil.exitCode()).isNotZero();
        assertThat(modeWithUntil.err()).contains("--mode does not apply with it");
        assertThat(RichEntities.read(datastore, "", "Acct")).isEqualTo(before);
    }
}
