package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.ChildCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * Kills a running {@code keyranger run} with SIGKILL and resumes the job: the persisted totals, which commit in the
 * same transactions as the pages, show that every entity was written exactly once. The one kill inside open
 * transactions on each emulator: the other kill and freeze tests hold their runner between transactions on the
 * Firestore emulator ({@link ChildCli#holdFlag}), which keeps a dead runner's locks for 60 s.
 */
@OnDataEmulators
class KillAndResumeTest {
    @Parameter
    ServerType server;
    private static final int ENTITIES = 3_000;

    @TempDir
    Path dir;

    @Test
    void aKilledJobResumesAndWritesEveryEntityExactlyOnce() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "kill");
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
        try (ChildCli child = ChildCli.start(dir, conn, List.of("run", "--kind", "Doc", "--mapper", mapper.toString(),
                "--job-id", "killed-job", "--page-size", "40", "--workers", "4", "--shards", "4",
                "--hold-after-chunks", "10"))) {
            child.awaitHeld(); // every worker inside a chunk, its transaction open
            child.kill(); // SIGKILL: no shutdown hook runs, no open transaction commits
        }
        long readAtKill = ShardedCounter.existing(datastore, "job:killed-job").total("read");
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
}
