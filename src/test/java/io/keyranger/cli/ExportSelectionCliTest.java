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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kind or namespace that an export does not hold, given to {@code restore} or {@code diff}: refused before anything
 * is read from Datastore or written, naming what the export holds and the name that was most likely meant.
 */
class ExportSelectionCliTest {
    @TempDir
    Path dir;

    @Test
    void aKindOrNamespaceTheExportLacksIsRefusedWithWhatItHoldsAndNothingIsRestored() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("export-selection");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            seeded.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Wallet").newKey("w" + i))
                    .set("balance", i).build());
            seeded.add(Entity.newBuilder(datastore.newKeyFactory().setNamespace("prod").setKind("Wallet")
                    .newKey("p" + i)).set("balance", i).build());
        }
        SharedEmulator.putAll(datastore, seeded);
        Path export = EmulatorExports.export(conn, dir, null);
        List<Key> deleted = seeded.stream().filter(e -> e.getKey().getNamespace().isEmpty()).limit(20)
                .map(Entity::getKey).toList();
        datastore.delete(deleted.toArray(new Key[0]));
        InProcessCli cli = new InProcessCli(dir, conn);

        InProcessCli.Result plural = cli.run("restore", "--export", export.toString(), "--kind", "Wallets");
        assertThat(plural.exitCode()).as(plural.out() + plural.err()).isEqualTo(KeyRangerCli.EXIT_USER_ERROR);
        assertThat(plural.err()).contains("holds no entity of kind 'Wallets' in the default namespace")
                .contains("Did you mean kind 'Wallet'?").contains("the default namespace: Wallet")
                .contains("namespace 'prod': Wallet").doesNotContain("\tat ");

        InProcessCli.Result lowerCase = cli.run("restore", "--export", export.toString(), "--kind", "wallet");
        assertThat(lowerCase.exitCode()).isEqualTo(KeyRangerCli.EXIT_USER_ERROR);
        assertThat(lowerCase.err()).contains("Did you mean kind 'Wallet'?");

        InProcessCli.Result namespace = cli.run("restore", "--export", export.toString(), "--kind", "Wallet",
                "--namespace", "Prod");
        assertThat(namespace.exitCode()).isEqualTo(KeyRangerCli.EXIT_USER_ERROR);
        assertThat(namespace.err()).contains("holds no entity of kind 'Wallet' in namespace 'Prod'")
                .contains("Did you mean namespace 'prod'?");

        InProcessCli.Result diff = cli.run("diff", "--export", export.toString(), "--kind", "Wallets");
        assertThat(diff.exitCode()).isEqualTo(KeyRangerCli.EXIT_USER_ERROR);
        assertThat(diff.err()).contains("Did you mean kind 'Wallet'?");
        InProcessCli.Result dryRun = cli.run("restore", "--export", export.toString(), "--gql",
                "SELECT * FROM Wallets WHERE balance > 3", "--dry-run");
        assertThat(dryRun.exitCode()).isEqualTo(KeyRangerCli.EXIT_USER_ERROR);
        assertThat(dryRun.err()).contains("Did you mean kind 'Wallet'?");

        for (Key key : deleted) {
            assertThat(datastore.get(key)).as("nothing restored: " + key).isNull();
        }
        InProcessCli.Result jobs = cli.run("jobs");
        assertThat(jobs.out()).doesNotContain("restore-");

        InProcessCli.Result right = cli.run("restore", "--export", export.toString(), "--kind", "Wallet");
        assertThat(right.exitCode()).as(right.out() + right.err()).isZero();
        List<Entity> now = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Wallet").build()).forEachRemaining(now::add);
        assertThat(now).containsExactlyInAnyOrderElementsOf(seeded.stream()
                .filter(e -> e.getKey().getNamespace().isEmpty()).toList());
    }

    @Test
    void aNarrowedDiffCountsEntitiesThatCrossedTheConditionAsChangedBothWays() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("diff-crossing");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            seeded.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Account").newKey("a" + i))
                    .set("tier", i % 2 == 0 ? "gold" : "silver").set("balance", i).build());
        }
        SharedEmulator.putAll(datastore, seeded);
        Path export = EmulatorExports.export(conn, dir, null);
        Key intoGold = datastore.newKeyFactory().setKind("Account").newKey("a1");
        Key outOfGold = datastore.newKeyFactory().setKind("Account").newKey("a2");
        Key editedGold = datastore.newKeyFactory().setKind("Account").newKey("a4");
        Key deletedGold = datastore.newKeyFactory().setKind("Account").newKey("a6");
        Key newGold = datastore.newKeyFactory().setKind("Account").newKey("new");
        datastore.put(Entity.newBuilder(datastore.get(intoGold)).set("tier", "gold").build(),
                Entity.newBuilder(datastore.get(outOfGold)).set("tier", "silver").build(),
                Entity.newBuilder(datastore.get(editedGold)).set("balance", -1).build(),
                Entity.newBuilder(newGold).set("tier", "gold").set("balance", 0).build());
        datastore.delete(deletedGold);
        InProcessCli cli = new InProcessCli(dir, conn);
        Path keys = dir.resolve("keys");

        InProcessCli.Result diff = cli.run("diff", "--export", export.toString(), "--gql",
                "SELECT * FROM Account WHERE tier = 'gold'", "--keys-out", keys.toString());
        assertThat(diff.exitCode()).as(diff.out() + diff.err()).isZero();
        assertThat(diff.out()).containsPattern("same\\s+17\\b").containsPattern("changed\\s+3\\b")
                .containsPattern("removed\\s+1\\b").containsPattern("added\\s+1\\b")
                .contains("of the changed, 1 match it now and did not in the export (a restore with this query does "
                        + "not select them: their exported version does not match it), 1 matched it in the export and "
                        + "do not now")
                .contains("entered.keys: those that match the query now and did not in the export");
        // changed.keys holds what a restore with the query selects; the one that entered the query is listed apart
        assertThat(KeysFile.read(keys.resolve("changed.keys"), conn.projectId(), ""))
                .containsExactlyInAnyOrder(outOfGold, editedGold);
        assertThat(KeysFile.read(keys.resolve("entered.keys"), conn.projectId(), ""))
                .containsExactly(intoGold);
        assertThat(KeysFile.read(keys.resolve("added.keys"), conn.projectId(), ""))
                .containsExactly(newGold);
        assertThat(KeysFile.read(keys.resolve("removed.keys"), conn.projectId(), ""))
                .containsExactly(deletedGold);

        // stopped before the pass for added entities, it does not say that none entered the query
        InProcessCli.Result stopped = cli.run("diff", "--export", export.toString(), "--gql",
                "SELECT * FROM Account WHERE tier = 'gold'", "--stop-after", "1");
        assertThat(stopped.exitCode()).as(stopped.out() + stopped.err()).isEqualTo(RunCommand.EXIT_CANCELLED);
        assertThat(stopped.out()).containsPattern("added\\s+\\(not looked for\\)")
                .contains("those that match it now and did not in the export were not looked for")
                .doesNotContain("0 match it now");
    }
}
