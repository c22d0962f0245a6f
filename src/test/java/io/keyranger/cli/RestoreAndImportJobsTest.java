package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.support.ChildCli;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RawEntities;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore and an import are jobs like any other, on the real emulator: spread over eight workers, killed with
 * SIGKILL mid-way and resumed, every entity exactly once (checked against the emulator's own answers and the job's
 * counters), listed by {@code keyranger jobs}, and reverted.
 */
class RestoreAndImportJobsTest {
    /** At pages of 20 on eight workers, as many pages as 20,000 entities make at the default page size. */
    private static final int ENTITIES = 1_500;

    @TempDir
    Path dir;

    @Test
    void aRestoreFromTheEmulatorsOwnExportKilledMidwayOnEightWorkersIsResumedExactly() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("restore-kill");
        Datastore datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Item", ENTITIES));
        Map<String, JsonNode> seeded = RawEntities.of(conn, "", "Item");
        assertThat(seeded).hasSize(ENTITIES);
        String export = EmulatorExports.export(conn, dir, null).toString();
        deleteAll(datastore, "Item");

        try (ChildCli child = ChildCli.start(dir, conn, List.of("restore", "--export", export, "--kind", "Item",
                "--job-id", "R", "--workers", "8", "--page-size", "20", "--hold-after-chunks", "20"))) {
            child.awaitHeld(); // every worker waits inside a commit's transaction
            child.kill();
        }
        int atKill = RawEntities.of(conn, "", "Item").size();
        assertThat(atKill).as("killed mid-way").isBetween(1, ENTITIES - 1);

        InProcessCli cli = new InProcessCli(dir, conn);
        InProcessCli.Result resumed = cli.run("restore", "--export", export, "--kind", "Item", "--job-id", "R");
        assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isZero();
        assertThat(RawEntities.of(conn, "", "Item")).as("every entity as the emulator exported it").isEqualTo(seeded);
        Map<String, Long> totals = ShardedCounter.existing(datastore, "job:R").totals();
        assertThat(totals).as("each entity read and written once").containsEntry("read", (long) ENTITIES)
                .containsEntry("written", (long) ENTITIES);
        assertThat(resumed.err()).doesNotContain("0 ranges, depth 0");

        InProcessCli.Result jobs = cli.run("jobs");
        assertThat(jobs.out()).as(jobs.out()).containsPattern("R\\s.*Item.*done.*revertible");
    }

    @Test
    void anImportKilledMidwayOnEightWorkersIsResumedExactlyOnceAndItsRevertEndsDone() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("import-kill");
        Datastore datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Doc", ENTITIES / 2));
        Map<String, JsonNode> before = RawEntities.of(conn, "", "Doc");
        Map<Key, Entity> expected = new HashMap<>(RichEntities.read(datastore, "", "Doc"));
        List<Key> existing = new ArrayList<>(expected.keySet());
        List<String> lines = new ArrayList<>(ENTITIES);
        for (int i = 0; i < ENTITIES; i++) { // half overwrite an entity, half are new
            Key key = i % 2 == 0 ? datastore.newKeyFactory().setKind("Doc").newKey("new-" + i) : existing.get(i / 2);
            Entity entity = Entity.newBuilder(key).set("line", i).set("text", "imported " + i).build();
            expected.put(key, entity);
            lines.add(EntityCodec.encode(entity).toString());
        }
        Path file = dir.resolve("docs.jsonl");
        Files.write(file, lines);
        Path mapper = dir.resolve("import.json");
        Files.writeString(mapper, "{\"template\":\"import\",\"file\":\"" + file.toString().replace("\\", "\\\\")
                + "\"}");

        try (ChildCli child = ChildCli.start(dir, conn, List.of("run", "--kind", "Doc", "--mapper",
                mapper.toString(), "--job-id", "imp", "--workers", "8", "--page-size", "20", "--hold-after-chunks",
                "20"))) {
            child.awaitHeld();
            child.kill();
        }
        InProcessCli cli = new InProcessCli(dir, conn);
        InProcessCli.Result resumed = cli.run("run", "--resume", "imp");
        assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isZero();
        assertThat(RichEntities.read(datastore, "", "Doc")).as("every line imported").isEqualTo(expected);
        Map<String, Long> totals = ShardedCounter.existing(datastore, "job:imp").totals();
        assertThat(totals).as("each line read and written once").containsEntry("read", (long) ENTITIES)
                .containsEntry("written", (long) ENTITIES);

        InProcessCli.Result jobs = cli.run("jobs");
        assertThat(jobs.out()).as(jobs.out()).containsPattern("imp\\s.*Doc.*done.*revertible");

        InProcessCli.Result revert = cli.run("revert", "imp");
        assertThat(revert.exitCode()).as(revert.out() + revert.err()).isZero();
        assertThat(RawEntities.of(conn, "", "Doc")).as("the import taken back, entity by entity").isEqualTo(before);
    }

    private static void deleteAll(Datastore datastore, String kind) {
        List<Key> keys = new ArrayList<>(RichEntities.read(datastore, "", kind).keySet());
        for (int i = 0; i < keys.size(); i += 500) {
            datastore.delete(keys.subList(i, Math.min(keys.size(), i + 500)).toArray(new Key[0]));
        }
    }
}
