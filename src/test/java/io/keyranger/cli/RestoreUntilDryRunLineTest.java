package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.KeyFactory;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.keys.KeyFormat;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore undoing a window ({@code --as-of T0 --until T1}, relative times, a {@code --gql} with quotes) that leaves a
 * later write alone prints the dry run naming it: read back by a POSIX shell, that line holds the connection options
 * and the query as given, the moments as absolute times and --dry-run (not the job's id); run, it names the later
 * write. On the Firestore emulator.
 */
class RestoreUntilDryRunLineTest {
    @TempDir
    Path dir;

    @Test
    void thePrintedDryRunKeepsTheConnectionAndTheQueryQuotedForTheShell() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "restore-dry-line");
        Datastore datastore = SharedEmulator.connect(conn);
        KeyFactory keys = datastore.newKeyFactory().setKind("Item");
        for (long id = 1; id <= 5; id++) {
            datastore.put(Entity.newBuilder(keys.newKey(id)).set("tag", "it's").set("n", id).build());
        }
        Thread.sleep(3_000);
        Entity changed = Entity.newBuilder(keys.newKey(2)).set("tag", "it's").set("n", 20).build();
        datastore.put(changed);
        datastore.delete(keys.newKey(3));
        Thread.sleep(3_000);
        Entity later = Entity.newBuilder(keys.newKey(2)).set("tag", "it's").set("n", 200).build();
        datastore.put(later);
        Thread.sleep(1_000);
        String gql = "SELECT * FROM Item WHERE tag = 'it''s'";
        InProcessCli cli = new InProcessCli(dir, conn);

        InProcessCli.Result restore = cli.run("restore", "--gql", gql, "--as-of", "-5s", "--until", "-2s",
                "--job-id", "D");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isEqualTo(RevertCommand.EXIT_CONFLICTS);
        String line = restore.err().lines().map(String::strip).filter(l -> l.startsWith("keyranger restore "))
                .filter(l -> l.endsWith(" --dry-run")).findFirst().orElseThrow(() -> new AssertionError(restore.err()));
        List<String> words = shellWords(line);
        assertThat(words).hasSize(13);
        assertThat(words.subList(0, 4)).containsExactly("keyranger", "restore", "--gql", gql);
        assertThat(words.get(4)).isEqualTo("--as-of");
        assertThat(words.get(6)).isEqualTo("--until");
        Instant t0 = Instant.parse(words.get(5));
        Instant t1 = Instant.parse(words.get(7));
        assertThat(t0).isBefore(t1);
        assertThat(words.subList(8, 13)).containsExactly("--emulator-host", conn.emulatorHost(), "--project",
                conn.projectId(), "--dry-run");

        List<String> again = new ArrayList<>(words.subList(1, 8)); // InProcessCli adds the connection itself
        again.add("--dry-run");
        InProcessCli.Result dry = cli.run(again.toArray(new String[0]));
        assertThat(dry.exitCode()).as(dry.out() + dry.err()).isZero();
        assertThat(dry.out()).contains("would leave " + KeyFormat.format(later.getKey())
                + ": written again after --until");
    }

    /** The words a POSIX shell reads from {@code line}, as {@code sh} itself splits them. */
    private static List<String> shellWords(String line) throws IOException, InterruptedException {
        Process sh = new ProcessBuilder("sh", "-c", "for w in " + line + "; do printf '%s\\0' \"$w\"; done")
                .redirectErrorStream(true).start();
        String out = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(sh.waitFor()).as(out).isZero();
        List<String> words = new ArrayList<>(List.of(out.split("\0", -1)));
        words.remove(words.size() - 1);
        return words;
    }
}
