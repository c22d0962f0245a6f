package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore or diff of the database's past over a kind the moment holds nothing of is refused as one from an export
 * is, naming the nearest kind; KeyRanger's own bookkeeping kinds and Datastore's reserved ones are never a job's kind,
 * on any command. Each refusal exits non-zero and leaves no job behind (the Firestore emulator, which keeps the past).
 */
class PastKindRefusalsCliTest {
    @TempDir
    Path dir;

    @Test
    void aKindTheMomentLacksAndBookkeepingKindsAreRefusedBeforeAnyJob() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "past-kinds");
        Datastore datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Acct", 6));
        InProcessCli cli = new InProcessCli(dir, conn);
        InProcessCli.Result count = cli.run("run", "--kind", "Acct", "--mapper",
                cli.mapper("{\"template\":\"count\"}").toString(), "--job-id", "c1");
        assertThat(count.exitCode()).as(count.err()).isZero(); // a job stored before T, and Acct known to KeyRanger
        Thread.sleep(20);
        String t = Instant.now().truncatedTo(ChronoUnit.MICROS).toString();
        Thread.sleep(20);
        long jobs = jobs(datastore);

        InProcessCli.Result typo = cli.run("restore", "--as-of", t, "--kind", "Acctt", "--job-id", "r1");
        assertThat(typo.exitCode()).as(typo.out() + typo.err()).isEqualTo(1);
        assertThat(typo.err()).contains("Kind 'Acctt' was not found in the default namespace as of " + t)
                .contains("Did you mean 'Acct'?").doesNotContain("restoring");
        InProcessCli.Result none = cli.run("restore", "--as-of", t, "--kind", "NoSuchKind", "--mode", "overwrite",
                "--remove-added");
        assertThat(none.exitCode()).as(none.out() + none.err()).isEqualTo(1);
        assertThat(none.err()).contains("Kind 'NoSuchKind' was not found");
        InProcessCli.Result dry = cli.run("restore", "--as-of", t, "--kind", "Acctt", "--dry-run");
        assertThat(dry.exitCode()).as(dry.out() + dry.err()).isEqualTo(1);
        assertThat(dry.err()).contains("Did you mean 'Acct'?");
        InProcessCli.Result diff = cli.run("diff", "--as-of", t, "--kind", "Acctt");
        assertThat(diff.exitCode()).as(diff.out() + diff.err()).isEqualTo(1);
        assertThat(diff.err()).contains("Kind 'Acctt' was not found").contains("Did you mean 'Acct'?");

        for (String kind : List.of(BookkeepingKinds.JOB, "_KeyRangerUndo", "__kind__")) {
            String why = kind.startsWith("__") ? "reserved by Datastore" : "KeyRanger's own bookkeeping";
            InProcessCli.Result restore = cli.run("restore", "--as-of", t, "--kind", kind, "--mode", "overwrite",
                    "--remove-added");
            assertThat(restore.exitCode()).as(restore.out() + restore.err()).isEqualTo(1);
            assertThat(restore.err()).contains("'" + kind + "' is").contains(why);
            InProcessCli.Result compared = cli.run("diff", "--as-of", t, "--kind", kind);
            assertThat(compared.exitCode()).as(compared.out() + compared.err()).isEqualTo(1);
            assertThat(compared.err()).contains("'" + kind + "' is").contains(why);
        }
        Path file = dir.resolve("jobs.jsonl");
        Files.writeString(file, EntityCodec.encode(Entity.newBuilder(datastore.newKeyFactory()
                .setKind(BookkeepingKinds.JOB).newKey("forged")).set("status", "DONE").build()) + "\n");
        InProcessCli.Result imported = cli.run("run", "--kind", BookkeepingKinds.JOB, "--mapper", cli.mapper(
                "{\"template\":\"import\",\"file\":\"" + file.toString().replace("\\", "\\\\") + "\"}").toString());
        assertThat(imported.exitCode()).as(imported.out() + imported.err()).isEqualTo(1);
        assertThat(imported.err()).contains("KeyRanger's own bookkeeping");

        assertThat(jobs(datastore)).as("no job was stored by a refused command").isEqualTo(jobs);
        assertThat(datastore.get(datastore.newKeyFactory().setKind(BookkeepingKinds.JOB).newKey("forged"))).isNull();
    }

    private static long jobs(Datastore datastore) {
        long n = 0;
        var keys = datastore.run(Query.newKeyQueryBuilder().setKind(BookkeepingKinds.JOB).build());
        while (keys.hasNext()) {
            keys.next();
            n++;
        }
        return n;
    }
}
