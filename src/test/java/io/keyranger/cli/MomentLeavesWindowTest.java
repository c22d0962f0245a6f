package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.ReadOption;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.cells.Ledger;
import io.keyranger.executor.store.JobStore;
import io.keyranger.keys.KeyOrder;
import io.keyranger.support.ChildCli;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore from the past whose moment leaves the server's version window while it runs stops with that reason, not
 * as failed ranges: on the Firestore emulator (the data is the emulator's own), its window shortened to 25 s for the
 * runner (a system property) rather than waiting out the emulator's 300 s. What it restored before stays; nothing it
 * finished is painted failed; a runner whose window still holds the moment resumes it to an exact end.
 */
class MomentLeavesWindowTest {
    private static final int SEEDED = 300;
    private static final int WINDOW_SECONDS = 25;

    @TempDir
    Path dir;

    @Test
    void aRestoreWhoseMomentLeavesTheWindowStopsWithTheReasonAndIsResumedWhereTheWindowHoldsIt() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "window-left");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = RichEntities.of(datastore, "Item", SEEDED);
        SharedEmulator.putAll(datastore, seeded);
        Thread.sleep(20);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(20);
        List<Entity> damaged = new ArrayList<>();
        seeded.forEach(e -> damaged.add(Entity.newBuilder(e).set("damaged", true).build()));
        SharedEmulator.putAll(datastore, damaged);

        int code;
        String log;
        try (ChildCli child = ChildCli.start(dir, conn, List.of("-D" + ReadWindow.FIRESTORE_EMULATOR_KEEPS_PROPERTY
                + "=" + WINDOW_SECONDS), List.of("restore", "--as-of", t0.toString(), "--kind", "Item", "--mode",
                "overwrite", "--job-id", "W", "--shards", "4", "--workers", "1", "--page-size", "20",
                "--hold-between-chunks", "3"))) {
            child.awaitHeld();
            long wait = t0.plusSeconds(WINDOW_SECONDS + 2).toEpochMilli() - System.currentTimeMillis();
            Thread.sleep(Math.max(0, wait)); // the moment leaves the runner's window while the job is held
            child.release();
            code = child.waitFor(120);
            log = child.log();
        }
        assertThat(code).as(log).isEqualTo(RunCommand.EXIT_RANGES_FAILED);
        assertThat(log).contains("the moment " + t0 + " has left the server's version window")
                .contains("the Firestore emulator drops an entity's old version")
                .contains("Job W stopped there; every commit it made is kept (revert them with 'keyranger revert W')")
                .doesNotContain("Datastore error").doesNotContain("unexpected error");
        long restored = RichEntities.read(datastore, "", "Item").values().stream()
                .filter(e -> !e.contains("damaged")).count();
        assertThat(restored).as("what it restored before it stopped stays").isPositive().isLessThan(SEEDED);

        // the cells it finished stay done: a failure recorded at one later (a range resumed there) does not repaint it
        List<Entity> done = ledgers(datastore, "DONE");
        assertThat(done).as("cells finished before the stop").isNotEmpty();
        for (Entity ledger : done) {
            Entity after = Ledger.of(ledger.getKey(), ledger, KeyOrder.PRODUCTION).failed("W", 0, null,
                    "a later failure", false);
            assertThat(after.getString("status")).as("a finished cell stays finished").isEqualTo("DONE");
        }
        assertThat(ledgers(datastore, "FAILED")).as("the stop records no failure on a ledger").isEmpty();

        // this runner keeps the emulator's 4 minutes: the moment (seconds old) is still whole there, so it resumes
        InProcessCli.Result resumed = new InProcessCli(dir, conn).run("run", "--resume", "W");
        assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isZero();
        Map<Key, Entity> atT0 = new HashMap<>();
        datastore.get(seeded.stream().map(Entity::getKey).toList(), ReadOption.readTime(Timestamp
                .ofTimeSecondsAndNanos(t0.getEpochSecond(), t0.getNano()))).forEachRemaining(e -> atT0.put(e.getKey(), e));
        assertThat(atT0).as("the emulator's own lookup at T0").hasSize(SEEDED);
        assertThat(RichEntities.read(datastore, "", "Item")).as("entity by entity, as at T0").isEqualTo(atT0);
        assertThat(ledgers(datastore, "DONE").stream().map(Entity::getKey).toList()).as("the cells done before")
                .containsAll(done.stream().map(Entity::getKey).toList());
        assertThat(ledgers(datastore, "FAILED")).isEmpty();
    }

    /**
     * A copy from another database watches its moment against that database's window: once the moment leaves it, the
     * copy stops with the reason, keeping what it wrote; a runner whose window holds it resumes it exactly.
     */
    @Test
    void aCopyWhoseSourceMomentLeavesTheWindowStopsWithTheReason() throws Exception {
        ConnectionSpec source = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "window-copy-src");
        ConnectionSpec target = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "window-copy-tgt");
        Datastore from = SharedEmulator.connect(source);
        SharedEmulator.putAll(from, RichEntities.of(from, "Item", SEEDED));
        Thread.sleep(20);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(20);
        int code;
        String log;
        try (ChildCli child = ChildCli.start(dir, target, List.of("-D" + ReadWindow.FIRESTORE_EMULATOR_KEEPS_PROPERTY
                + "=" + WINDOW_SECONDS), List.of("restore", "--from-project", source.projectId(), "--as-of",
                t0.toString(), "--kind", "Item", "--job-id", "C", "--shards", "4", "--workers", "1", "--page-size",
                "20", "--hold-between-chunks", "3"))) {
            child.awaitHeld();
            long wait = t0.plusSeconds(WINDOW_SECONDS + 2).toEpochMilli() - System.currentTimeMillis();
            Thread.sleep(Math.max(0, wait));
            child.release();
            code = child.waitFor(120);
            log = child.log();
        }
        assertThat(code).as(log).isEqualTo(RunCommand.EXIT_RANGES_FAILED);
        assertThat(log).contains("the moment " + t0 + " has left the server's version window")
                .contains("Job C stopped there").doesNotContain("Datastore error");
        Datastore to = SharedEmulator.connect(target);
        assertThat(RichEntities.read(to, "", "Item").size()).as("what it copied stays").isPositive()
                .isLessThan(SEEDED);

        InProcessCli.Result resumed = new InProcessCli(dir, target).run("run", "--resume", "C");
        assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isZero();
        assertThat(RichEntities.read(to, "", "Item")).as("every source entity, once").hasSize(SEEDED);
    }

    private static List<Entity> ledgers(Datastore datastore, String status) {
        List<Entity> found = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setNamespace("").setKind(JobStore.RANGE_KIND).build())
                .forEachRemaining(e -> {
                    if (e.getKey().getName().startsWith("W:") && status.equals(e.getString("status"))) {
                        found.add(e);
                    }
                });
        return found;
    }
}
