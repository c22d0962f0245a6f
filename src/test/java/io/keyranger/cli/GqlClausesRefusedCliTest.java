package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query clause KeyRanger cannot apply to a job's selection (LIMIT, OFFSET, ORDER BY, DISTINCT, a projection) is
 * refused by name, never dropped: {@code restore --gql} from an export and from the past, {@code diff --gql} and
 * {@code run --gql} exit non-zero naming the clause, and the emulator then holds exactly what it held before (no entity
 * restored, no job stored), and no key list is written.
 */
class GqlClausesRefusedCliTest {
    private static final int SEEDED = 20;
    /** Each refused query's clause, as the message names it. */
    private static final Map<String, String> CLAUSES = Map.of(
            "SELECT * FROM Acct WHERE n >= 0 LIMIT 5", "LIMIT 5",
            "SELECT * FROM Acct WHERE n >= 0 OFFSET 3", "OFFSET 3",
            "SELECT * FROM Acct ORDER BY n DESC", "ORDER BY n DESC",
            "SELECT n FROM Acct WHERE n >= 0", "SELECT n",
            "SELECT DISTINCT n FROM Acct", "SELECT DISTINCT n");

    @TempDir
    Path dir;

    @Test
    void restoreAndDiffFromAnExportRefuseWhatTheyCannotApply() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("gql-clauses");
        Datastore datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, accounts(datastore));
        Path export = EmulatorExports.export(conn, dir, null);
        datastore.delete(keys(datastore, "Acct").toArray(new Key[0])); // a restore would bring all 20 back
        InProcessCli cli = new InProcessCli(dir, conn);
        CLAUSES.forEach((gql, clause) -> {
            refused(cli.run("restore", "--export", export.toString(), "--kind", "Acct", "--gql", gql), clause);
            Path keysOut = dir.resolve("diff-" + clause.replace(' ', '-'));
            refused(cli.run("diff", "--export", export.toString(), "--kind", "Acct", "--gql", gql, "--keys-out",
                    keysOut.toString()), clause);
            assertThat(!Files.exists(keysOut) || keysOut.toFile().list().length == 0).as("no key list for %s", gql)
                    .isTrue();
            refused(cli.run("run", "--gql", gql, "--mapper", mapper(cli)), clause);
        });
        assertThat(keys(datastore, "Acct")).as("nothing restored").isEmpty();
        assertThat(keys(datastore, BookkeepingKinds.JOB)).as("no job stored").isEmpty();
    }

    @Test
    void restoreAndDiffFromThePastRefuseWhatTheyCannotApply() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "gql-clauses-past");
        Datastore datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, accounts(datastore));
        Thread.sleep(20);
        Instant then = Instant.now();
        Thread.sleep(20);
        datastore.delete(keys(datastore, "Acct").toArray(new Key[0]));
        InProcessCli cli = new InProcessCli(dir, conn);
        CLAUSES.forEach((gql, clause) -> {
            refused(cli.run("restore", "--as-of", then.toString(), "--kind", "Acct", "--gql", gql), clause);
            refused(cli.run("diff", "--as-of", then.toString(), "--kind", "Acct", "--gql", gql), clause);
        });
        assertThat(keys(datastore, "Acct")).as("nothing restored").isEmpty();
        assertThat(keys(datastore, BookkeepingKinds.JOB)).as("no job stored").isEmpty();
    }

    private static void refused(InProcessCli.Result result, String clause) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isNotZero();
        assertThat(result.err()).as(result.out() + result.err()).contains("The query's " + clause + " cannot apply")
                .doesNotContain("Exception");
    }

    private static List<Entity> accounts(Datastore datastore) {
        List<Entity> all = new ArrayList<>();
        for (int i = 1; i <= SEEDED; i++) {
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Acct").newKey(i)).set("n", i).build());
        }
        return all;
    }

    private static List<Key> keys(Datastore datastore, String kind) {
        List<Key> keys = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind(kind).build()).forEachRemaining(keys::add);
        return keys;
    }

    private static String mapper(InProcessCli cli) {
        try {
            return cli.mapper("{\"template\":\"count\"}").toString();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
