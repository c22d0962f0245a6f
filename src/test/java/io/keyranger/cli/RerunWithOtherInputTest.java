package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.support.ChildCli;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
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
 * A restore or an import run again under its {@code --job-id} with other input: its ledgers record places in the
 * input it was started on, so the run is refused before it writes anything, and the same input still resumes.
 * Every outcome is read back from the emulator.
 */
class RerunWithOtherInputTest {
    private static final int DOCS = 1_500;

    @TempDir
    Path dir;

    @Test
    void aRestoreRunAgainUnderItsIdWithAnotherSelectionIsRefusedAndANewIdRestoresExactly() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("rerun-restore");
        Datastore datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Item", 60));
        Map<Key, Entity> seeded = RichEntities.read(datastore, "", "Item");
        assertThat(seeded).hasSize(60);
        String export = EmulatorExports.export(conn, dir, null).toString();
        List<Key> deleted = new ArrayList<>(seeded.keySet()).subList(10, 13);
        datastore.delete(deleted.toArray(new Key[0]));
        Path keys = dir.resolve("one.keys");
        KeysFile.write(keys, List.of(deleted.get(0)));
        InProcessCli cli = new InProcessCli(dir, conn);

        InProcessCli.Result first = cli.run("restore", "--export", export, "--kind", "Item", "--keys", keys.toString(),
                "--job-id", "R");
        assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
        Map<Key, Entity> afterFirst = new HashMap<>(seeded);
        afterFirst.remove(deleted.get(1));
        afterFirst.remove(deleted.get(2));
        assertThat(RichEntities.read(datastore, "", "Item")).isEqualTo(afterFirst);

        InProcessCli.Result again = cli.run("restore", "--export", export, "--kind", "Item", "--job-id", "R");
        assertThat(again.exitCode()).as(again.out() + again.err()).isEqualTo(1);
        assertThat(again.err()).contains("Job R was started on other input").contains("1 keys from a keys file")
                .contains("all keys").contains("Nothing was written").contains("new --job-id")
                .doesNotContain("Exception");
        assertThat(again.err()).as("refused before anything is said of it").doesNotContain("restoring");
        assertThat(RichEntities.read(datastore, "", "Item")).as("nothing more written").isEqualTo(afterFirst);

        InProcessCli.Result fresh = cli.run("restore", "--export", export, "--kind", "Item", "--job-id", "R2");
        assertThat(fresh.exitCode()).as(fresh.out() + fresh.err()).isZero();
        assertThat(RichEntities.read(datastore, "", "Item")).isEqualTo(seeded);
    }

    /** {@code count} Doc entities, exported to a JSON-lines file by the export template, then deleted. */
    private record Docs(Datastore datastore, InProcessCli cli, Path file, String spec, Map<Key, Entity> seeded) {
    }

    private Docs exportedDocs(ConnectionSpec conn, int count) throws Exception {
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> docs = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            docs.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Doc").newKey("doc-" + i)).set("i", i)
                    .set("text", "text of " + i).build());
        }
        SharedEmulator.putAll(datastore, docs);
        Map<Key, Entity> seeded = RichEntities.read(datastore, "", "Doc");
        InProcessCli cli = new InProcessCli(dir, conn);
        Path file = dir.resolve(conn.projectId() + ".jsonl");
        String quoted = file.toString().replace("\\", "\\\\");
        InProcessCli.Result exported = cli.run("run", "--kind", "Doc", "--mapper",
                cli.mapper("{\"template\":\"export\",\"file\":\"" + quoted + "\"}").toString());
        assertThat(exported.exitCode()).as(exported.err()).isZero();
        assertThat(Files.readAllLines(file)).hasSize(count);
        datastore.delete(seeded.keySet().toArray(new Key[0]));
        String spec = cli.mapper("{\"template\":\"import\",\"file\":\"" + quoted + "\"}").toString();
        return new Docs(datastore, cli, file, spec, seeded);
    }

    /** Starts importing the Docs in a child process as job {@code jobId}, and kills it after {@code chunks} commits. */
    private Map<Key, Entity> killedAfter(ConnectionSpec conn, Docs docs, String jobId, int chunks) throws Exception {
        try (ChildCli child = ChildCli.start(dir, conn, List.of("run", "--kind", "Doc", "--mapper", docs.spec(),
                "--job-id", jobId, "--workers", "1", "--hold-after-chunks", Integer.toString(chunks)))) {
            child.awaitHeld(); // inside the next commit's transaction
            child.kill();
        }
        Map<Key, Entity> atKill = RichEntities.read(docs.datastore(), "", "Doc");
        assertThat(atKill.size()).as("killed halfway").isBetween(1, docs.seeded().size() - 1);
        return atKill;
    }

    @Test
    void anImportKilledHalfwayIsRefusedOnAnEditedFileAndFinishesExactlyOnceOnItsOwn() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("rerun-import");
        Docs docs = exportedDocs(conn, DOCS);
        Path file = docs.file();
        byte[] original = Files.readAllBytes(file);
        Map<Key, Entity> atKill = killedAfter(conn, docs, "imp", 3);

        List<String> edited = new ArrayList<>(Files.readAllLines(file));
        edited.remove(1); // one line near the start removed: every later line moves up one
        Files.write(file, edited);
        InProcessCli.Result refused = docs.cli().run("run", "--kind", "Doc", "--mapper", docs.spec(), "--job-id",
                "imp");
        assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(1);
        assertThat(refused.err()).contains("Job imp was started on other input").contains(file.toString())
                .contains("content is not the same").contains("Nothing was written").contains("new --job-id")
                .doesNotContain("Exception");
        assertThat(refused.err()).as("refused before anything is said of it").doesNotContain("Job imp: import");
        assertThat(RichEntities.read(docs.datastore(), "", "Doc")).as("nothing more written").isEqualTo(atKill);

        Files.write(file, original); // the original content again (a newer modification time)
        InProcessCli.Result resumed = docs.cli().run("run", "--kind", "Doc", "--mapper", docs.spec(), "--job-id",
                "imp");
        assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isZero();
        assertThat(RichEntities.read(docs.datastore(), "", "Doc")).isEqualTo(docs.seeded());
        Map<String, Long> totals = ShardedCounter.existing(docs.datastore(), "job:imp").totals();
        assertThat(totals.get("read")).as("each line read once").isEqualTo(DOCS);
        assertThat(totals.get("written")).as("each entity written once").isEqualTo(DOCS);
    }

}
