package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.lease.Holding;
import io.keyranger.executor.store.JobStore;
import io.keyranger.support.ChildCli;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.OnlyOn;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * A runner frozen (SIGSTOP) with chunks in flight, their transactions open, past its lease; the job is reverted
 * meanwhile; then the runner wakes up and its chunks try to commit. The revert's fence on the job's ledgers makes
 * them commit nothing: afterwards every entity is as it was before the job, read back from the emulator, and the woken
 * runner ends fenced, saying the job was reverted. The same for an import (a job like any other), which is then
 * never resumed.
 */
@OnDataEmulators
class FrozenRunnerRevertTest {
    @Parameter
    ServerType server;
    private static final int DOCS = 400;
    private static final String CREDIT = "{\"template\":\"increment\",\"property\":\"balance\",\"amount\":5}";

    @TempDir
    Path dir;

    @Test
    @OnlyOn(value = ServerType.EMULATOR, byDefault = true, why = OnlyOn.HELD_LOCKS + "woken runner (TwoRunnersTest)")
    void aFrozenRunnerThatWakesAfterTheRevertCommitsNothing() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "revert-frozen");
        Datastore datastore = SharedEmulator.connect(conn);
        Map<Key, Entity> before = seed(datastore);
        InProcessCli cli = new InProcessCli(dir, conn);
        try (ChildCli frozen = ChildCli.start(dir, conn, List.of("run", "--kind", "Wallet", "--mapper",
                mapper().toString(), "--job-id", "pay", "--workers", "4", "--page-size", "20", "--lease-seconds",
                "1", "--hold-after-chunks", "6"))) {
            frozen.awaitHeld(); // a worker inside a chunk: it read its ledger and entities, its commit is to come
            frozen.signal("STOP"); // a long GC pause: no renewals, the chunks in flight stay in flight
            awaitLeaseExpired(datastore, "pay");
            long written = ShardedCounter.existing(datastore, "job:pay").total("written");
            assertThat(written).as("frozen mid-way").isBetween(1L, DOCS - 1L);

            InProcessCli.Result revert = cli.run("revert", "pay");
            assertThat(revert.exitCode()).as(revert.out() + revert.err()).isZero();
            assertThat(revert.err()).contains("was left running, and its runner is gone");
            assertThat(changed(before, datastore)).as("reverted as far as it ran").isEmpty();

            frozen.signal("CONT"); // it wakes up after the revert, and its held chunks try to commit
            frozen.release();
            int code = frozen.waitFor(120);
            assertThat(changed(before, datastore)).as("the woken runner committed nothing: " + frozen.log()).isEmpty();
            assertThat(code).as(frozen.log()).isEqualTo(RunCommand.EXIT_TAKEN_OVER);
            assertThat(frozen.log()).contains("Job pay was reverted (by revert-pay-").contains("committed nothing")
                    .doesNotContain("\tat ");
        }
    }

    @Test
    @OnlyOn(value = ServerType.EMULATOR, byDefault = true, why = OnlyOn.HELD_LOCKS + "woken runner (TwoRunnersTest)")
    void aFrozenImportThatWakesAfterTheRevertCommitsNothingAndIsNeverResumed() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "revert-frozen-import");
        Datastore datastore = SharedEmulator.connect(conn);
        Map<Key, Entity> before = seed(datastore);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < DOCS; i++) { // half overwrite a Wallet, half are new
            Key key = datastore.newKeyFactory().setKind("Wallet").newKey(i % 2 == 0 ? "w-" + i : "new-" + i);
            lines.add(EntityCodec.encode(Entity.newBuilder(key).set("balance", -1L).build())
                    .toString());
        }
        Path file = dir.resolve("wallets.jsonl");
        Files.write(file, lines);
        Path mapper = dir.resolve("import.json");
        Files.writeString(mapper, "{\"template\":\"import\",\"file\":\"" + file + "\"}");
        List<String> importing = List.of("run", "--kind", "Wallet", "--mapper", mapper.toString(), "--job-id", "imp",
                "--lease-seconds", "1", "--workers", "1", "--page-size", "40"); // chunks of 40 where no group limit
        InProcessCli cli = new InProcessCli(dir, conn);
        List<String> held = new ArrayList<>(importing);
        held.addAll(List.of("--hold-after-chunks", "3"));
        try (ChildCli frozen = ChildCli.start(dir, conn, held)) {
            frozen.awaitHeld(); // its fourth commit read its ledgers and is about to commit
            frozen.signal("STOP");
            awaitLeaseExpired(datastore, "imp");
            assertThat(changed(before, datastore)).as("frozen mid-way").isNotEmpty().hasSizeLessThan(DOCS);

            InProcessCli.Result revert = cli.run("revert", "imp");
            assertThat(revert.exitCode()).as(revert.out() + revert.err()).isZero();
            assertThat(changed(before, datastore)).as("reverted as far as it ran").isEmpty();

            frozen.signal("CONT");
            frozen.release();
            int code = frozen.waitFor(120);
            assertThat(changed(before, datastore)).as("the woken import committed nothing: " + frozen.log()).isEmpty();
            assertThat(code).as(frozen.log()).isEqualTo(RunCommand.EXIT_TAKEN_OVER);
            assertThat(frozen.log()).contains("Job imp was reverted (by revert-imp-").doesNotContain("\tat ");
        }
        InProcessCli.Result again = cli.run(importing.toArray(new String[0]));
        assertThat(again.exitCode()).as(again.out() + again.err()).isNotZero();
        assertThat(again.err()).contains("Job imp was reverted").contains("Start a new job");
        assertThat(changed(before, datastore)).isEmpty();
    }

    /** A revert of an import whose runner is alive and holds its lease is refused, and writes nothing. */
    @Test
    @OnlyOn(value = ServerType.EMULATOR, byDefault = true, why = OnlyOn.HELD_LOCKS + "woken runner (TwoRunnersTest)")
    void aRevertOfAnImportThatIsStillRunningIsRefused() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "revert-live-import");
        Datastore datastore = SharedEmulator.connect(conn);
        Map<Key, Entity> before = seed(datastore);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < DOCS; i++) {
            Key key = datastore.newKeyFactory().setKind("Wallet").newKey("w-" + i);
            lines.add(EntityCodec.encode(Entity.newBuilder(key).set("balance", -1L).build())
                    .toString());
        }
        Path file = dir.resolve("live.jsonl");
        Files.write(file, lines);
        Path mapper = dir.resolve("live-import.json");
        Files.writeString(mapper, "{\"template\":\"import\",\"file\":\"" + file + "\"}");
        InProcessCli cli = new InProcessCli(dir, conn);
        try (ChildCli running = ChildCli.start(dir, conn, List.of("run", "--kind", "Wallet", "--mapper",
                mapper.toString(), "--job-id", "live", "--workers", "1", "--page-size", "40", "--hold-after-chunks",
                "3"))) {
            running.awaitHeld(); // alive, its lease (the default length) renewed, its fourth commit held
            Map<Key, Entity> midway = read(datastore);

            InProcessCli.Result refused = cli.run("revert", "live");
            assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(KeyRangerCli.EXIT_USER_ERROR);
            assertThat(refused.err()).contains("is still running").contains("Ctrl-C where it runs")
                    .doesNotContain("\tat ");
            assertThat(read(datastore)).as("the refused revert wrote nothing").isEqualTo(midway);
            assertThat(midway).as("the import had written some when the revert was refused").isNotEqualTo(before);
        }
    }

    /** Waits (reading the emulator) until the frozen runner's lease has run out. */
    private static void awaitLeaseExpired(Datastore datastore, String jobId) throws InterruptedException {
        awaitLeaseExpired(datastore, JobStore.JOB_KIND, jobId, jobId);
    }

    private static void awaitLeaseExpired(Datastore datastore, String fenceKind, String id, String leaseName)
            throws InterruptedException {
        Key fence = datastore.newKeyFactory().setNamespace("").setKind(fenceKind).newKey(id);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (Holding.read(datastore, fence, leaseName).map(Holding::live).orElse(true)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the frozen runner's lease never ran out");
            }
            Thread.sleep(100);
        }
    }

    private Map<Key, Entity> seed(Datastore datastore) {
        List<Entity> all = new ArrayList<>();
        for (int i = 0; i < DOCS; i++) {
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Wallet").newKey("w-" + i))
                    .set("balance", i).set("owner", "u" + i % 7).build());
        }
        SharedEmulator.putAll(datastore, all);
        return read(datastore);
    }

    /** The Wallets whose entity the emulator holds now differs from {@code before} (or is gone, or new). */
    private static List<String> changed(Map<Key, Entity> before, Datastore datastore) {
        Map<Key, Entity> now = read(datastore);
        Set<Key> keys = new TreeSet<>(Comparator.comparing(Key::getName));
        keys.addAll(before.keySet());
        keys.addAll(now.keySet());
        return keys.stream().filter(k -> !Objects.equals(before.get(k), now.get(k)))
                .map(k -> k.getName() + ": " + (before.get(k) == null ? null : before.get(k).getLong("balance"))
                        + " -> " + (now.get(k) == null ? null : now.get(k).getLong("balance"))).toList();
    }

    /** Every Wallet as the emulator holds it now. */
    private static Map<Key, Entity> read(Datastore datastore) {
        Map<Key, Entity> now = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Wallet").build())
                .forEachRemaining(e -> now.put(e.getKey(), e));
        return now;
    }

    private Path mapper() throws Exception {
        Path file = dir.resolve("credit.json");
        Files.writeString(file, CREDIT);
        return file;
    }
}
