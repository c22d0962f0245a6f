package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.support.SharedEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a running {@code keyranger run} with SIGKILL and resumes the job: the persisted totals, which commit in the
 * same transactions as the pages, show that every entity was written exactly once.
 */
class KillAndResumeTest {
    private static final int ENTITIES = 3_000;

    @TempDir
    Path dir;

    @Test
    void aKilledJobResumesAndWritesEveryEntityExactlyOnce() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("kill");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> entities = new ArrayList<>();
        for (int i = 1; i <= ENTITIES; i++) {
            entities.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Doc").newKey("doc-" + i)).set("i", i).build());
        }
        for (int i = 0; i < ENTITIES; i += 500) {
            datastore.put(entities.subList(i, i + 500).toArray(new Entity[0]));
        }
        Path mapper = dir.resolve("touch.json");
        Files.writeString(mapper, "{\"template\":\"touch\"}");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "-Dkeyranger.config.dir=" + dir, "io.keyranger.app.Launcher", "run", "--kind", "Doc", "--mapper",
                mapper.toString(), "--job-id", "killed-job", "--page-size", "40", "--workers", "4", "--shards", "4",
                "--emulator-host", conn.emulatorHost(), "--project", conn.projectId())
                .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        long readAtKill;
        try {
            readAtKill = awaitProgress(datastore);
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL: no shutdown hook runs
        }
        assertThat(readAtKill).as("killed mid-job").isBetween(1L, ENTITIES - 1L);

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(dir, Map.of(), request -> { }), new PrintWriter(out),
                new PrintWriter(err), "run", "--resume", "killed-job", "--emulator-host", conn.emulatorHost(),
                "--project", conn.projectId());
        assertThat(code).as(err.toString()).isZero();
        Map<String, Long> totals = ShardedCounter.existing(datastore, "job:killed-job").totals();
        assertThat(totals.get("read")).isEqualTo(ENTITIES);
        assertThat(totals.get("written")).isEqualTo(ENTITIES);
    }

    private static long awaitProgress(Datastore datastore) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try {
                long read = ShardedCounter.existing(datastore, "job:killed-job").total("read");
                if (read >= 400) {
                    return read;
                }
            } catch (RuntimeException notYet) {
                // the job has not created its counter yet
            }
            Thread.sleep(50);
        }
        return 0;
    }
}
