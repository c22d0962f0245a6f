package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.ChildCli;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C on {@code keyranger run} cancels as the app's Cancel does: no range starts and no page begins after it, the
 * commits in flight end, and the command exits with the cancelled code, saying so and how to resume.
 */
class CtrlCStopsTheJobTest {
    private static final int ENTITIES = 800;
    private static final int WORKERS = 2;
    private static final int PAGE = 20;
    /** Entities a second the job writes: slow enough to count between a look and the signal. */
    private static final int QPS = 40;

    @TempDir
    Path dir;

    @Test
    void ctrlCStopsNewWorkExitsCancelledAndSaysHowToResume() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.EMULATOR, "ctrlc");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> wallets = new ArrayList<>();
        for (int i = 0; i < ENTITIES; i++) {
            wallets.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Wallet").newKey(String.format("w%05d", i)))
                    .set("n", 0).build());
        }
        SharedEmulator.putAll(datastore, wallets);
        Path mapper = dir.resolve("increment.json");
        Files.writeString(mapper, "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}");
        long before;
        long exit;
        long signalled;
        String log;
        try (ChildCli child = ChildCli.startTakingCtrlC(dir, conn, List.of("run", "--kind", "Wallet", "--mapper",
                mapper.toString(), "--job-id", "ctrl-c", "--shards", "16", "--workers", String.valueOf(WORKERS),
                "--page-size", String.valueOf(PAGE), "--qps", String.valueOf(QPS)))) {
            while (count(datastore, 1) < 2 * PAGE) {
                Thread.sleep(100);
            }
            before = count(datastore, 1);
            child.signal("INT");
            signalled = System.nanoTime();
            exit = child.waitFor(60);
            log = child.log();
        }
        long stoppedMillis = (System.nanoTime() - signalled) / 1_000_000;
        long written = count(datastore, 1);
        System.out.printf("Ctrl-C: %d written at the signal, %d after it, exit %d after %d ms%n", before,
                written - before, exit, stoppedMillis);
        assertThat(exit).as(log).isEqualTo(RunCommand.EXIT_CANCELLED);
        assertThat(log).contains("Job ctrl-c cancelled").contains("Resume it with: keyranger run --resume ctrl-c");
        // a look at the emulator, then the signal: at QPS a second, what a worker had in flight, and what came between
        assertThat(written - before).as("written after Ctrl-C").isLessThanOrEqualTo(WORKERS * PAGE + QPS / 2);
        assertThat(written).as("the job's counter agrees with the emulator")
                .isEqualTo(ShardedCounter.existing(datastore, "job:ctrl-c").total("written"));
        Thread.sleep(500);
        assertThat(count(datastore, 1)).as("nothing written once it exited").isEqualTo(written);
    }

    private static long count(Datastore datastore, long n) {
        long[] found = {0};
        datastore.run(Query.newKeyQueryBuilder().setKind("Wallet").setFilter(PropertyFilter.eq("n", n)).build())
                .forEachRemaining(k -> found[0]++);
        return found[0];
    }
}
