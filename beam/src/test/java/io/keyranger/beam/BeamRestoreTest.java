package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.RawEntities;
import io.keyranger.support.RichEntities;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.keyranger.support.InProcessCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore and an import as Beam pipelines on the DirectRunner, over the same file positions, cells and input check
 * as a local run: a restore from the emulator's own {@code :export} killed with SIGKILL mid-way and finished by
 * {@code keyranger run --resume}, and a JSON-lines import whose workers die and is rerun under its id, each exactly
 * once, checked raw entity by entity against the emulator's answers and by the job's counters.
 */
class BeamRestoreTest {
    private static final int ENTITIES = 3_000;

    @TempDir
    Path dir;

    @Test
    void aRestoreKilledOnTheDirectRunnerIsFinishedByRunResumeExactlyOnce() throws Exception {
        String project = BeamEmulator.freshProject("beam-restore");
        ConnectionSpec conn = ConnectionSpec.emulator(BeamEmulator.get().hostPort(), project);
        Datastore datastore = BeamEmulator.connect(project);
        put(datastore, RichEntities.of(datastore, "Item", ENTITIES));
        Map<String, JsonNode> seeded = RawEntities.of(conn, "", "Item");
        assertThat(seeded).hasSize(ENTITIES);
        Path export = EmulatorExports.export(conn, dir, null);
        delete(datastore, "Item");
        Path mapper = mapper("{\"template\":\"import\",\"format\":\"managed\",\"mode\":\"overwrite\",\"file\":\""
                + export + "\"}");

        // 40 ms a call: the pipeline is still running when a third of the export is read, on any machine
        long readAtKill = BeamEmulator.killAfter(datastore, "R", BeamEmulator.pipelineArgs(project, mapper, "R",
                "--faults=latency=40"), ENTITIES / 3, ENTITIES, dir.resolve("beam.log"));
        int restoredAtKill = RawEntities.of(conn, "", "Item").size();
        assertThat(restoredAtKill).as("killed mid-way (read %d)", readAtKill).isBetween(1, ENTITIES - 1);

        String[] resumed = cli(project, "run", "--resume", "R", "--take-over", "--force");
        assertThat(resumed[0]).as(resumed[1] + resumed[2]).isEqualTo("0");
        assertThat(RawEntities.of(conn, "", "Item")).as("every entity as the emulator exported it").isEqualTo(seeded);
        assertThat(BeamEmulator.totals(datastore, "R")).as("each entity read and written once")
                .containsEntry("read", (long) ENTITIES).containsEntry("written", (long) ENTITIES);
        String[] jobs = cli(project, "jobs");
        assertThat(jobs[1]).as(jobs[1]).containsPattern("R\\s.*Item.*done \\(on beam \\+ local\\).*revertible");
    }

    @Test
    void anImportWhoseWorkersDieOnTheDirectRunnerIsRerunUnderItsIdExactlyOnce() throws Exception {
        String project = BeamEmulator.freshProject("beam-import");
        ConnectionSpec conn = ConnectionSpec.emulator(BeamEmulator.get().hostPort(), project);
        Datastore datastore = BeamEmulator.connect(project);
        put(datastore, RichEntities.of(datastore, "Item", ENTITIES));
        Map<String, JsonNode> seeded = RawEntities.of(conn, "", "Item");
        List<String> lines = new ArrayList<>();
        RichEntities.read(datastore, "", "Item").values().forEach(e -> lines.add(EntityCodec.encode(e).toString()));
        Path file = dir.resolve("items.jsonl");
        Files.write(file, lines);
        delete(datastore, "Item");
        Path mapper = mapper("{\"template\":\"import\",\"file\":\"" + file + "\"}");

        // failed calls, lost commit answers, and a worker that dies after its 5th commit: the pipeline fails. With
        // 40 ms a call a commit takes 120 ms or more (begin, lookup, commit), so the 5th comes before the DirectRunner
        // checkpoints a range (after 1 s), whatever the machine; 3,000 entities need more than 100 commits
        BeamEmulator.Run first = BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper, "imp",
                "--faults=rate=0.05,lost=0.05,seed=7,latency=40", "--failAfterCommits=5", "--failures=3"));
        assertThat(first.exit()).as(first.out() + first.err()).isEqualTo(1);
        assertThat(RawEntities.of(conn, "", "Item").size()).as("the first run stopped mid-way")
                .isBetween(1, ENTITIES - 1);

        // the same file changed: refused before anything is written, naming the input
        Path changed = dir.resolve("changed.jsonl");
        Files.write(changed, lines.subList(1, lines.size()));
        BeamEmulator.Run other = BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper("{\"template\":\"import\","
                + "\"file\":\"" + changed + "\"}"), "imp"));
        assertThat(other.exit()).as(other.out() + other.err()).isEqualTo(2);
        assertThat(other.err()).contains("was started on other input").doesNotContain("\tat ");

        BeamEmulator.Run rerun = BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper, "imp",
                "--faults=rate=0.05,lost=0.05,seed=8"));
        assertThat(rerun.exit()).as(rerun.out() + rerun.err()).isZero();
        assertThat(rerun.out()).contains("Job imp: import over Item done");
        assertThat(RawEntities.of(conn, "", "Item")).as("every line imported once, raw").isEqualTo(seeded);
        assertThat(BeamEmulator.totals(datastore, "imp")).as("each line read and written once")
                .containsEntry("read", (long) ENTITIES).containsEntry("written", (long) ENTITIES);
    }

    @Test
    void aRestoreAndAnImportReadTheirInputFromACloudStoreThroughTheFileSystemsOfThePipeline() throws Exception {
        String project = BeamEmulator.freshProject("beam-bucket");
        ConnectionSpec conn = ConnectionSpec.emulator(BeamEmulator.get().hostPort(), project);
        Datastore datastore = BeamEmulator.connect(project);
        put(datastore, RichEntities.of(datastore, "Item", 1_000));
        Map<String, JsonNode> seeded = RawEntities.of(conn, "", "Item");
        List<String> lines = new ArrayList<>();
        RichEntities.read(datastore, "", "Item").values().forEach(e -> lines.add(EntityCodec.encode(e).toString()));
        List<Key> chosen = new ArrayList<>(RichEntities.read(datastore, "", "Item").keySet()).subList(100, 300);
        Path keys = dir.resolve("chosen.keys");
        KeysFile.write(keys, chosen);
        // the emulator's export's prefix folder: the export is found in its one subfolder, as in a gs:// bucket
        String bucket = project;
        BucketFileSystem.empty(bucket);
        String export = BucketFileSystem.upload(EmulatorExports.export(conn, dir, null), bucket, "exports");
        String keysObject = BucketFileSystem.upload(keys, bucket, "selection/chosen.keys");
        String jsonl = BucketFileSystem.upload(Files.write(dir.resolve("items.jsonl"), lines), bucket,
                "lines/items.jsonl");
        delete(datastore, "Item");

        BeamEmulator.Run restore = BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper("{\"template\":"
                + "\"import\",\"format\":\"managed\",\"file\":\"" + export + "\",\"keys\":\"" + keysObject
                + "\"}"), "from-bucket"));
        assertThat(restore.exit()).as(restore.out() + restore.err()).isZero();
        assertThat(RichEntities.read(datastore, "", "Item").keySet()).as("the 200 keys asked for, no other")
                .containsExactlyInAnyOrderElementsOf(chosen);
        Map<String, JsonNode> restored = RawEntities.of(conn, "", "Item");
        restored.forEach((key, entity) -> assertThat(entity).as("as the emulator exported it: %s", key)
                .isEqualTo(seeded.get(key)));

        // 1,000 lines of rich entities: cells of 64 KiB, so most ranges start reading in the middle of the object
        BeamEmulator.Run imported = BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper("{\"template\":"
                + "\"import\",\"file\":\"" + jsonl + "\"}"), "lines-from-bucket"));
        assertThat(imported.exit()).as(imported.out() + imported.err()).isZero();
        assertThat(RawEntities.of(conn, "", "Item")).as("every line imported, raw").isEqualTo(seeded);
        assertThat(BeamEmulator.totals(datastore, "lines-from-bucket")).as("each line read and written once")
                .containsEntry("read", 1_000L).containsEntry("written", 1_000L);
    }

    @Test
    void aRestoreThatLeavesLaterWritesAloneExitsAsTheCommandLinesRestoreDoes() throws Exception {
        String project = BeamEmulator.freshProject("beam-later");
        ConnectionSpec conn = ConnectionSpec.emulator(BeamEmulator.get().hostPort(), project);
        Datastore datastore = BeamEmulator.connect(project);
        List<Entity> items = RichEntities.of(datastore, "Item", 40);
        put(datastore, items);
        Path export = EmulatorExports.export(conn, dir, null);
        Key changed = items.get(0).getKey();
        datastore.put(Entity.newBuilder(datastore.get(changed)).set("later", "kept").build());
        datastore.delete(items.subList(1, 11).stream().map(Entity::getKey).toArray(Key[]::new));

        BeamEmulator.Run restore = BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper("{\"template\":"
                + "\"import\",\"format\":\"managed\",\"mode\":\"skip-changed\",\"file\":\"" + export + "\"}"),
                "later"));
        assertThat(restore.exit()).as("keyranger restore's exit for later writes left alone: " + restore.out()
                + restore.err()).isEqualTo(io.keyranger.cli.RevertCommand.EXIT_CONFLICTS);
        assertThat(restore.err()).contains("1 entity changed after what the job restores kept its later values");
        assertThat(datastore.get(changed).getString("later")).as("the later write left alone").isEqualTo("kept");
        assertThat(RichEntities.read(datastore, "", "Item")).as("the 10 missing brought back").hasSize(40);
    }

    private Path mapper(String json) throws Exception {
        return new InProcessCli(dir, null).mapper(json);
    }

    /** {@code keyranger ARGS} in this JVM: its exit code, what it printed and its errors. */
    private String[] cli(String project, String... args) {
        InProcessCli.Result r = new InProcessCli(dir, ConnectionSpec.emulator(
                BeamEmulator.get().hostPort(), project)).run(args);
        return new String[] {Integer.toString(r.exitCode()), r.out(), r.err()};
    }

    private static void put(Datastore datastore, List<Entity> entities) {
        for (int i = 0; i < entities.size(); i += 500) {
            datastore.put(entities.subList(i, Math.min(entities.size(), i + 500)).toArray(new Entity[0]));
        }
    }

    private static void delete(Datastore datastore, String kind) {
        List<Key> keys = new ArrayList<>(RichEntities.read(datastore, "", kind).keySet());
        for (int i = 0; i < keys.size(); i += 500) {
            datastore.delete(keys.subList(i, Math.min(keys.size(), i + 500)).toArray(new Key[0]));
        }
    }
}
