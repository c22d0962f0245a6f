package io.keyranger.formats.managed;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.StringValue;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.query.Gql;
import io.keyranger.support.ChildCli;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Selective restores from the emulator's own managed export, checked against the emulator's answers: after the export
 * 300 entities are deleted and 200 others changed; a skip-changed restore, killed with SIGKILL inside a commit and
 * resumed, brings back exactly the 300 and leaves the 200 as they are now.
 */
class RestoreTest {
    @TempDir
    Path dir;

    /** The project's Rich kind seeded, exported by the emulator, then 300 deleted and 200 changed. */
    private record Scene(ConnectionSpec conn, Datastore datastore, Path export, Map<Key, Entity> seeded,
                         List<Key> deleted, Map<Key, Entity> changed) {
    }

    private Scene scene(String project, int entities, int delete, int change) throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(project);
        Datastore datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Rich", entities));
        Map<Key, Entity> seeded = RichEntities.read(datastore, "", "Rich");
        Path export = EmulatorExports.export(conn, dir, null);
        List<Key> keys = new ArrayList<>(seeded.keySet());
        Collections.shuffle(keys, new Random(7));
        List<Key> deleted = keys.subList(0, delete);
        datastore.delete(deleted.toArray(new Key[0]));
        Map<Key, Entity> changed = new HashMap<>();
        for (Key key : keys.subList(delete, delete + change)) {
            Entity edited = Entity.newBuilder(seeded.get(key)).set("balance", -7L).set("editedBy", StringValue.of("app"))
                    .build();
            changed.put(key, edited);
        }
        SharedEmulator.putAll(datastore, new ArrayList<>(changed.values()));
        return new Scene(conn, datastore, export, seeded, List.copyOf(deleted), changed);
    }

    @Test
    void aSkipChangedRestoreKilledAndResumedBringsBackExactlyTheDeletedAndLeavesTheChanged() throws Exception {
        Scene s = scene("restore", 2_100, 300, 200);
        Entity added = Entity.newBuilder(s.datastore().newKeyFactory().setKind("Rich").newKey("added-later"))
                .set("balance", 1L).build();
        s.datastore().put(added);
        InProcessCli cli = new InProcessCli(dir, s.conn());

        InProcessCli.Result stopped = cli.run("diff", "--export", s.export().toString(), "--kind", "Rich",
                "--keys-out", dir.resolve("keys").toString(), "--page-size", "100", "--parallel", "3",
                "--stop-after", "700");
        assertThat(stopped.exitCode()).as(stopped.out() + stopped.err()).isEqualTo(4);
        assertThat(stopped.out()).contains("stopped early");
        // the export written again at the same place is another export: its records are not the stopped diff's
        Path metadata = Path.of(ManagedExport.open(s.export()).metadata());
        FileTime written = Files.getLastModifiedTime(metadata);
        Files.setLastModifiedTime(metadata, FileTime.fromMillis(written.toMillis() + 60_000));
        InProcessCli.Result rewritten = cli.run("diff", "--export", s.export().toString(), "--kind", "Rich",
                "--keys-out", dir.resolve("keys").toString(), "--page-size", "100", "--resume");
        assertThat(rewritten.exitCode()).as(rewritten.out() + rewritten.err()).isNotZero();
        assertThat(rewritten.err()).contains("Resume with the same options, or use another --keys-out folder");
        Files.setLastModifiedTime(metadata, written);
        InProcessCli.Result diff = cli.run("diff", "--export", s.export().toString(), "--kind", "Rich", "--keys-out",
                dir.resolve("keys").toString(), "--page-size", "100", "--resume");
        assertThat(diff.exitCode()).as(diff.err()).isZero();
        assertThat(diff.out()).containsPattern("same\\s+1,600").containsPattern("changed\\s+200")
                .containsPattern("removed\\s+300").containsPattern("added\\s+1\\b")
                .contains("balance: the export has").contains("now -7");
        assertThat(Files.readAllLines(dir.resolve("keys/removed.keys")).stream()
                .map(k -> Gql.key(k, s.conn().projectId(), "")).toList())
                .containsExactlyInAnyOrderElementsOf(s.deleted()); // each once, though the diff ran in two parts
        assertThat(Files.readAllLines(dir.resolve("keys/changed.keys")).stream()
                .map(k -> Gql.key(k, s.conn().projectId(), "")).toList())
                .containsExactlyInAnyOrderElementsOf(s.changed().keySet());

        InProcessCli.Result dry = cli.run("restore", "--export", s.export().toString(), "--kind", "Rich", "--dry-run");
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("would restore 300 missing").contains("would leave 200 changed")
                .contains("1,600 already as in the export").contains("nothing was written");
        assertThat(RichEntities.read(s.datastore(), "", "Rich")).hasSize(2_100 - 300 + 1);

        try (ChildCli child = ChildCli.start(dir, s.conn(), List.of("restore", "--export", s.export().toString(),
                "--kind", "Rich", "--job-id", "back", "--workers", "1", "--hold-after-chunks", "6"))) {
            child.awaitHeld();
            child.kill(); // SIGKILL inside a commit's transaction
        }
        long backBeforeResume = s.deleted().stream().filter(k -> s.datastore().get(k) != null).count();
        assertThat(backBeforeResume).as("killed halfway").isPositive().isLessThan(300);

        InProcessCli.Result resumed = cli.run("restore", "--export", s.export().toString(), "--kind", "Rich",
                "--job-id", "back");
        assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isEqualTo(7);
        assertThat(resumed.out()).contains("restored (missing): 300").contains("changed since the export: 200");
        assertThat(resumed.err()).contains("200 entities changed since the export");

        Map<Key, Entity> now = RichEntities.read(s.datastore(), "", "Rich");
        Map<Key, Entity> expected = new HashMap<>(s.seeded());
        expected.putAll(s.changed());
        expected.put(added.getKey(), added);
        assertThat(now).isEqualTo(expected);

        InProcessCli.Result revert = cli.run("revert", "back");
        assertThat(revert.exitCode()).as(revert.out() + revert.err()).isZero();
        assertThat(revert.out()).contains("restored: 300");
        assertThat(RichEntities.read(s.datastore(), "", "Rich")).hasSize(2_100 - 300 + 1);
    }

    @Test
    void aQueryOrAKeyListNarrowsTheRestoreAndTheModesDecideChangedEntities() throws Exception {
        Scene s = scene("restore-select", 240, 30, 30);
        InProcessCli cli = new InProcessCli(dir, s.conn());
        String export = s.export().toString();

        s.datastore().put(Entity.newBuilder(s.datastore().newKeyFactory().setKind("Rich").newKey("new-pro"))
                        .set("tier", "pro").build(),
                Entity.newBuilder(s.datastore().newKeyFactory().setKind("Rich").newKey("new-free"))
                        .set("tier", "free").build());
        long proRemoved = s.deleted().stream().filter(k -> s.seeded().get(k).getString("tier").equals("pro")).count();
        long proChanged = s.changed().keySet().stream().filter(k -> s.seeded().get(k).getString("tier").equals("pro"))
                .count();
        InProcessCli.Result proDiff = cli.run("diff", "--export", export, "--gql",
                "SELECT * FROM Rich WHERE tier = 'pro'");
        assertThat(proDiff.exitCode()).as(proDiff.err()).isZero();
        assertThat(proDiff.out()).containsPattern("changed\\s+" + proChanged + "\\b")
                .containsPattern("removed\\s+" + proRemoved + "\\b").containsPattern("added\\s+1\\b")
                .contains("Rich:\"new-pro\"").doesNotContain("new-free");
        s.datastore().delete(s.datastore().newKeyFactory().setKind("Rich").newKey("new-pro"),
                s.datastore().newKeyFactory().setKind("Rich").newKey("new-free"));

        InProcessCli.Result pro = cli.run("restore", "--export", export, "--gql",
                "SELECT * FROM Rich WHERE tier = 'pro' AND balance > 100", "--mode", "overwrite", "--no-undo");
        assertThat(pro.exitCode()).as(pro.out() + pro.err()).isZero();
        Map<Key, Entity> now = RichEntities.read(s.datastore(), "", "Rich");
        for (Key key : s.seeded().keySet()) {
            Entity seeded = s.seeded().get(key);
            boolean selected = seeded.getString("tier").equals("pro") && seeded.getLong("balance") > 100;
            Entity expected = selected ? seeded : s.deleted().contains(key) ? null : s.changed().getOrDefault(key,
                    seeded);
            assertThat(now.get(key)).as(key.toString()).isEqualTo(expected);
        }

        Predicate<Key> leftByQuery = k -> now.get(k) == null
                || !now.get(k).equals(s.seeded().get(k));
        List<Key> gone = s.deleted().stream().filter(leftByQuery).limit(3).toList();
        List<Key> edited = s.changed().keySet().stream().filter(leftByQuery).limit(2).toList();
        assertThat(gone).hasSize(3);
        assertThat(edited).hasSize(2);
        List<Key> some = new ArrayList<>(gone);
        some.addAll(edited);
        Path keys = dir.resolve("some.keys");
        KeysFile.write(keys, some);
        Files.writeString(keys, "KEY(Rich, 'not-exported')\n", StandardOpenOption.APPEND);
        InProcessCli.Result missingOnly = cli.run("restore", "--export", export, "--kind", "Rich", "--keys",
                keys.toString(), "--mode", "missing-only");
        assertThat(missingOnly.exitCode()).as(missingOnly.out() + missingOnly.err()).isZero();
        assertThat(missingOnly.err()).contains("1 of the 6 keys asked for is not in the export");
        assertThat(missingOnly.out()).contains("restored (missing): 3").contains("present live, left alone: 2");
        for (Key key : gone) {
            assertThat(s.datastore().get(key)).isEqualTo(s.seeded().get(key));
        }
        for (Key key : edited) {
            assertThat(s.datastore().get(key)).isEqualTo(s.changed().get(key));
        }
        Map<Key, Entity> after = RichEntities.read(s.datastore(), "", "Rich");
        assertThat(after).hasSize(now.size() + 3);
    }

    @Test
    void aJobBackedUpFirstOnTheServerIsRestoredFromThatBackup() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("restore-backup");
        Datastore datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Rich", 150));
        Map<Key, Entity> seeded = RichEntities.read(datastore, "", "Rich");
        InProcessCli cli = new InProcessCli(dir, conn);
        Path backup = dir.resolve("server-backup");
        InProcessCli.Result run = cli.run("run", "--kind", "Rich", "--mapper", cli.mapper("{\"template\": "
                + "\"increment\", \"property\": \"balance\", \"amount\": 3}").toString(), "--job-id", "inc",
                "--backup-to", backup.toString(), "--no-undo");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.err()).contains("Backing up Rich to " + backup).contains("Backup of job inc: ");
        Map<Key, Entity> exported = new HashMap<>();
        ManagedExport.open(backup).forEach(conn.projectId(), "", e -> exported.put(e.getKey(), e));
        assertThat(exported).as("the server's export, taken before the job").isEqualTo(seeded);
        assertThat(RichEntities.read(datastore, "", "Rich")).isNotEqualTo(seeded);
        InProcessCli.Result jobs = cli.run("jobs");
        assertThat(jobs.out()).contains("backed up first to " + backup);

        InProcessCli.Result restore = cli.run("restore", "--export", backup.toString(), "--kind", "Rich", "--mode",
                "overwrite");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(seeded);

        InProcessCli.Result notGs = new InProcessCli(dir, conn).run("run", "--kind", "Rich", "--mapper",
                cli.mapper("{\"template\": \"count\"}").toString(), "--backup-to", backup.toString());
        assertThat(notGs.exitCode()).isNotZero();
        assertThat(notGs.err()).contains("writes nothing").doesNotContain("\tat ");
    }

    @Test
    void aRestoreUnderFailedCallsAndLostCommitAnswersIsExactlyOnce() throws Exception {
        Scene s = scene("restore-faults", 600, 300, 50); // 300 to restore: 13 commits on the emulator
        InProcessCli cli = new InProcessCli(dir, s.conn());
        InProcessCli.Result restore = cli.run("restore", "--export", s.export().toString(), "--kind", "Rich",
                "--inject-faults", "rate=0.1,lost=0.5,seed=11");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isEqualTo(7);
        Matcher injected = Pattern.compile("injected (\\d+) failed calls and (\\d+) "
                + "lost commit answers").matcher(restore.err());
        assertThat(injected.find()).as(restore.err()).isTrue();
        assertThat(Long.parseLong(injected.group(1))).as("faults occurred").isPositive();
        assertThat(Long.parseLong(injected.group(2))).as("lost commit answers occurred").isPositive();
        assertThat(restore.out()).contains("restored (missing): 300").contains("changed since the export: 50")
                .contains("undo images: 300").contains("already as in the export: 250");
        // the export holds each key once: a record a commit that applied, however many attempts it took
        Matcher records = Pattern.compile("undo records: (\\d+)").matcher(restore.out());
        assertThat(records.find()).as(restore.out()).isTrue();
        assertThat(Long.parseLong(records.group(1))).isPositive().isLessThan(300 / 4);
        Map<Key, Entity> expected = new HashMap<>(s.seeded());
        expected.putAll(s.changed());
        assertThat(RichEntities.read(s.datastore(), "", "Rich")).isEqualTo(expected);
    }

    @Test
    void aCorruptOrTruncatedExportIsRefusedByNameAndNothingIsWritten() throws Exception {
        Scene s = scene("restore-bad", 120, 20, 0);
        InProcessCli cli = new InProcessCli(dir, s.conn());
        ManagedExport export = ManagedExport.open(s.export());
        Path output = Path.of(export.parts().get(0).files().get(0));
        byte[] good = Files.readAllBytes(output);

        byte[] corrupt = good.clone();
        corrupt[good.length / 2] ^= 0x5a;
        Files.write(output, corrupt);
        InProcessCli.Result bad = cli.run("restore", "--export", s.export().toString(), "--kind", "Rich");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.err()).contains(output.toString()).contains("offset").contains("corrupt")
                .doesNotContain("\tat ");

        Files.write(output, Arrays.copyOf(good, good.length - 100));
        InProcessCli.Result truncated = cli.run("restore", "--export", s.export().toString(), "--kind", "Rich");
        assertThat(truncated.exitCode()).isEqualTo(1);
        assertThat(truncated.err()).contains(output.toString()).contains("truncated").doesNotContain("\tat ");

        assertThat(RichEntities.read(s.datastore(), "", "Rich")).hasSize(100);
    }
}
