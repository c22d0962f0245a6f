package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every key file KeyRanger writes, it reads back: keys whose names (and an ancestor's) hold a line feed, a carriage
 * return, CR LF, a tab, quotes, a backslash and a character outside the BMP are put on the emulator and exported by
 * it, then deleted; {@code diff --keys-out} lists them one a line, {@code diff --keys} and {@code restore --keys} take
 * that file whole, and the restore brings back every one of them as the emulator held it.
 */
class KeyFileNamesTest {
    private static final List<String> NAMES = List.of("line\nfeed", "carriage\rreturn", "cr\r\nlf", "tab\there",
            "it's", "say \"hi\"", "back\\slash", "ends with \\", "\\n not a line feed", "emoji \uD83D\uDE00 here",
            "\n", "  padded  ", "#not a comment");

    @TempDir
    Path dir;

    @Test
    void keysWithLineBreaksQuotesAndNonBmpNamesGoThroughDiffAndRestore() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("key-file-names");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = new ArrayList<>();
        for (int i = 0; i < NAMES.size(); i++) {
            seeded.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Odd").newKey(NAMES.get(i)))
                    .set("n", i).build());
        }
        Key parent = datastore.newKeyFactory().setKind("Folder").newKey("a\nb\r'c'");
        seeded.add(Entity.newBuilder(Key.newBuilder(parent, "Odd", "child\n").build()).set("n", 99).build());
        SharedEmulator.putAll(datastore, seeded);
        Map<Key, Entity> before = odd(datastore);
        assertThat(before).hasSize(NAMES.size() + 1);
        Path export = EmulatorExports.export(conn, dir, null);
        datastore.delete(before.keySet().toArray(new Key[0]));

        InProcessCli cli = new InProcessCli(dir, conn);
        Path keys = dir.resolve("keys");
        InProcessCli.Result diff = cli.run("diff", "--export", export.toString(), "--kind", "Odd", "--keys-out",
                keys.toString());
        assertThat(diff.out()).as(diff.out() + diff.err()).containsPattern("removed +" + before.size() + "\n");
        Path removed = keys.resolve("removed.keys");
        List<String> lines = Files.readAllLines(removed, StandardCharsets.UTF_8);
        assertThat(lines).as("one key a line").hasSize(before.size())
                .allSatisfy(line -> assertThat(line).startsWith("KEY(").endsWith(")"));
        assertThat(lines).contains("KEY(Odd, 'line\\nfeed')", "KEY(Odd, 'cr\\r\\nlf')", "KEY(Odd, 'tab\\there')",
                "KEY(Odd, 'it''s')", "KEY(Odd, 'back\\\\slash')", "KEY(Odd, '\\\\n not a line feed')",
                "KEY(Odd, 'emoji \uD83D\uDE00 here')", "KEY(Folder, 'a\\nb\\r''c''', Odd, 'child\\n')");
        assertThat(KeysFile.read(removed, conn.projectId(), "")).as("read back whole")
                .containsExactlyInAnyOrderElementsOf(before.keySet());

        InProcessCli.Result again = cli.run("diff", "--export", export.toString(), "--kind", "Odd", "--keys",
                removed.toString());
        assertThat(again.err()).as(again.out() + again.err()).doesNotContain("is not a key");
        assertThat(again.out()).containsPattern("same +0\n").containsPattern("removed +" + before.size() + "\n");

        InProcessCli.Result restore = cli.run("restore", "--export", export.toString(), "--kind", "Odd", "--keys",
                removed.toString());
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        assertThat(odd(datastore)).isEqualTo(before);
    }

    private static Map<Key, Entity> odd(Datastore datastore) {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Odd").build()).forEachRemaining(e -> all.put(e.getKey(),
                e));
        return all;
    }
}
