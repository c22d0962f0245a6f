package io.keyranger.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.cli.KeyRangerCli;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ProgressListener;
import io.keyranger.datastore.ServerType;
import io.keyranger.demo.DemoDataset;
import io.keyranger.demo.DemoSeeder;
import io.keyranger.support.ChildCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.OnlyOn;
import io.keyranger.support.SharedEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * The CLI is killed with SIGKILL at random points of an increment over 4,000 entities (after a random number of
 * chunks, with every worker inside its next chunk's transaction), resumed each time, and finished: every entity,
 * checked one by one, is incremented exactly once.
 */
@OnDataEmulators
class CrashResumeTest {
    @Parameter
    ServerType server;
    /** Three kills after 10 to 49 chunks each leave at least 1,000 accounts to the last resume. */
    private static final int ACCOUNTS = 4_000;
    private static final int KILLS = 3;

    @TempDir
    Path dir;

    @Test
    @OnlyOn(value = ServerType.EMULATOR, byDefault = true,
            why = OnlyOn.HELD_LOCKS + "kill -9 and resume (KillAndResumeTest)")
    void killedThreeTimesAndResumedEveryAccountGetsExactlyTen() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "crash");
        Datastore datastore = SharedEmulator.connect(conn);
        new DemoSeeder(datastore).seed(ACCOUNTS, ProgressListener.NONE, Cancellation.NEVER);
        Map<Key, Long> before = new HashMap<>();
        new DemoDataset(conn.projectId(), "", ACCOUNTS).defaultNamespaceEntities().stream()
                .filter(e -> e.getKey().getKind().equals("Account"))
                .forEach(e -> before.put(e.getKey(), e.getLong("balance")));
        Path mapper = dir.resolve("credit.json");
        Files.writeString(mapper, "{\"template\":\"increment\",\"property\":\"balance\",\"amount\":10}");

        Random random = new Random(11);
        List<Long> killedAt = new ArrayList<>();
        long read = 0;
        for (int kill = 0; kill < KILLS; kill++) {
            List<String> args = new ArrayList<>(kill == 0
                    ? List.of("run", "--kind", "Account", "--mapper", mapper.toString(), "--job-id", "crash-job",
                            "--workers", "8", "--page-size", "100")
                    : List.of("run", "--resume", "crash-job"));
            // a chunk is about 20 accounts under the legacy emulator's 25 entity groups, a page of 100 without them
            int chunks = 10 + random.nextInt(40);
            args.addAll(List.of("--hold-after-chunks", String.valueOf(
                    server.limits().maxEntityGroups() > 0 ? chunks : chunks / 5)));
            try (ChildCli child = ChildCli.start(dir, conn, args)) {
                child.awaitHeld();
                child.kill(); // SIGKILL
            }
            read = ShardedCounter.existing(datastore, "job:crash-job").total("read");
            killedAt.add(read);
        }
        System.out.println("killed after read totals " + killedAt);
        assertThat(killedAt.get(KILLS - 1)).as("still work left to resume").isLessThan(ACCOUNTS);

        StringWriter err = new StringWriter();
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(dir, Map.of(), request -> { }),
                new PrintWriter(new StringWriter()), new PrintWriter(err), "run", "--resume", "crash-job",
                "--emulator-host", conn.emulatorHost(), "--project", conn.projectId());
        assertThat(code).as(err.toString()).isZero();

        List<Entity> after = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build()).forEachRemaining(after::add);
        assertThat(after).hasSize(ACCOUNTS);
        for (Entity e : after) {
            assertThat(e.getLong("balance")).as("%s", e.getKey()).isEqualTo(before.get(e.getKey()) + 10);
        }
        Map<String, Long> totals = ShardedCounter.existing(datastore, "job:crash-job").totals();
        assertThat(totals.get("read")).isEqualTo(ACCOUNTS);
        assertThat(totals.get("written")).isEqualTo(ACCOUNTS);
    }
}
