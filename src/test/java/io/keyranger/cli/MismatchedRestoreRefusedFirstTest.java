package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore from the past run under the id of a stored restore that was started with other options (another mode,
 * moment or kind) is refused before anything is said of a job: one line, the refusal, and no "restoring…" or "resume
 * it with" for a job that never starts. Read back from the Firestore emulator (which keeps the past): nothing written.
 */
class MismatchedRestoreRefusedFirstTest {
    @TempDir
    Path dir;

    @Test
    void aRestoreUnderTheIdOfOneWithOtherOptionsSaysOnlyWhyItIsRefused() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "mismatch-first");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = RichEntities.of(datastore, "Acct", 8);
        SharedEmulator.putAll(datastore, seeded);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Other", 3));
        Thread.sleep(20);
        String t = Instant.now().truncatedTo(ChronoUnit.MICROS).toString();
        Thread.sleep(20);
        Key gone = seeded.get(0).getKey();
        datastore.delete(gone);
        InProcessCli cli = new InProcessCli(dir, conn);

        InProcessCli.Result first = cli.run("restore", "--as-of", t, "--kind", "Acct", "--job-id", "R",
                "--mode", "missing-only");
        assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
        assertThat(first.err()).contains("Job R: restoring Acct");
        datastore.delete(gone); // a later change that a refused run must leave alone
        Map<Key, Entity> before = RichEntities.read(datastore, "", "Acct");

        String later = Instant.parse(t).plusMillis(5).toString();
        for (List<String> other : List.of(List.of("--as-of", t, "--kind", "Acct", "--mode", "overwrite"),
                List.of("--as-of", later, "--kind", "Acct", "--mode", "missing-only"),
                List.of("--as-of", t, "--kind", "Other", "--mode", "missing-only"))) {
            List<String> args = new ArrayList<>(List.of("restore", "--job-id", "R"));
            args.addAll(other);
            InProcessCli.Result refused = cli.run(args.toArray(new String[0]));
            String said = refused.out() + refused.err();
            assertThat(refused.exitCode()).as(other + ": " + said).isEqualTo(1);
            assertThat(refused.err()).as(other.toString()).startsWith("keyranger: Job R was started with other options")
                    .contains("Nothing was written");
            assertThat(refused.err().strip().lines()).as(other + ": only the refusal: " + said).hasSize(1);
            assertThat(said).as(other.toString()).doesNotContain("restoring").doesNotContain("If it stops");
            assertThat(RichEntities.read(datastore, "", "Acct")).as(other + ": nothing written").isEqualTo(before);
        }
    }
}
