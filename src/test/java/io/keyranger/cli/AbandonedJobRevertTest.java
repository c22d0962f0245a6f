package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.ChildCli;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.OnlyOn;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * A job over two kinds ({@code --kind Wallet,Wallets}) run in a child process and left running: while its runner is
 * alive a revert is refused, naming what to do; once the runner is gone (SIGKILL, or frozen past its lease) the revert
 * takes the job and brings both kinds back to what they were before it, read back from the emulator, and the job is
 * never resumed.
 */
@OnDataEmulators
class AbandonedJobRevertTest {
    @Parameter
    ServerType server;
    private static final int PER_KIND = 400;
    private static final String CREDIT = "{\"template\":\"increment\",\"property\":\"balance\",\"amount\":5}";

    @TempDir
    Path dir;

    @Test
    @OnlyOn(value = ServerType.EMULATOR, byDefault = true,
            why = OnlyOn.HELD_LOCKS + "kill -9 and resume (KillAndResumeTest) and revert (RevertTest)")
    void aKilledGroupJobIsRevertedAsFarAsItRanAndALiveOneIsRefused() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "revert-killed");
        Datastore datastore = SharedEmulator.connect(conn);
        Map<Key, Entity> before = seed(datastore);
        InProcessCli cli = new InProcessCli(dir, conn);
        try (ChildCli child = ChildCli.start(dir, conn, List.of("run", "--kind", "Wallet,Wallets", "--mapper",
                mapper().toString(), "--job-id", "pay", "--workers", "4", "--page-size", "20",
                "--hold-after-chunks", "6"))) {
            child.awaitHeld(); // every worker inside a chunk of Wallet, its transaction open; its lease renewed

            InProcessCli.Result refused = cli.run("revert", "pay");
            assertThat(refused.exitCode()).as(refused.err()).isEqualTo(KeyRangerCli.EXIT_USER_ERROR);
            assertThat(refused.err()).contains("is still running").contains("Ctrl-C where it runs")
                    .contains("'keyranger revert pay' again").doesNotContain("cancel it").doesNotContain("\tat ");

            child.kill(); // SIGKILL: no shutdown hook runs, no open transaction commits
        }
        assertThat(ShardedCounter.existing(datastore, "job:pay.1-Wallet").total("written"))
                .as("killed mid-way through the first kind").isBetween(1L, PER_KIND - 1L);
        assertThat(read(datastore)).isNotEqualTo(before);

        InProcessCli.Result revert = cli.run("revert", "pay");
        assertThat(revert.exitCode()).as(revert.out() + revert.err()).isZero();
        assertThat(revert.err()).contains("was left running, and its runner is gone");
        assertThat(read(datastore)).isEqualTo(before);

        InProcessCli.Result resume = cli.run("run", "--resume", "pay");
        assertThat(resume.exitCode()).as(resume.out() + resume.err()).isNotZero();
        assertThat(resume.out() + resume.err()).contains("was reverted");
        assertThat(read(datastore)).isEqualTo(before);
    }

    private Map<Key, Entity> seed(Datastore datastore) {
        List<Entity> all = new ArrayList<>();
        for (String kind : List.of("Wallet", "Wallets")) {
            for (int i = 0; i < PER_KIND; i++) {
                all.add(Entity.newBuilder(datastore.newKeyFactory().setKind(kind).newKey(kind + "-" + i))
                        .set("balance", i).set("owner", "u" + i % 7).build());
            }
        }
        SharedEmulator.putAll(datastore, all);
        return read(datastore);
    }

    /** Both kinds as the emulator holds them now. */
    private static Map<Key, Entity> read(Datastore datastore) {
        Map<Key, Entity> now = new HashMap<>();
        for (String kind : List.of("Wallet", "Wallets")) {
            datastore.run(Query.newEntityQueryBuilder().setKind(kind).build())
                    .forEachRemaining(e -> now.put(e.getKey(), e));
        }
        return now;
    }

    private Path mapper() throws Exception {
        Path file = dir.resolve("credit.json");
        Files.writeString(file, CREDIT);
        return file;
    }
}
