package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.ChildCli;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * {@code migrate} on each emulator, over three migrations: a CEL transform that renames and fills properties, a set
 * over a GQL query, a delete. What each migration should leave is written out by hand here and compared, entity by
 * entity, with the emulator's own answers to queries of the kinds.
 */
@OnDataEmulators
class MigrateCliTest {
    private static final int ITEMS = 60;

    @Parameter
    ServerType server;

    @TempDir
    Path dir;

    private Path folder;

    /** A project with 60 items (every third gold) and 10 obsolete entities, and the three migrations. */
    private ConnectionSpec seeded(String name) throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, name);
        Datastore ds = SharedEmulator.connect(conn);
        List<Entity> all = new ArrayList<>();
        for (int i = 1; i <= ITEMS; i++) {
            all.add(Entity.newBuilder(ds.newKeyFactory().setKind("Item").newKey(i)).set("name", "item-" + i)
                    .set("tier", i % 3 == 0 ? "gold" : "basic").set("n", i).set("legacy", "L" + i).build());
        }
        for (int i = 1; i <= 10; i++) {
            all.add(Entity.newBuilder(ds.newKeyFactory().setKind("Obsolete").newKey("o" + i)).set("i", i).build());
        }
        SharedEmulator.putAll(ds, all);
        folder = dir.resolve("migrations");
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("0001_rename_and_fill.json"), "{\"steps\": [{\"kind\": \"Item\", \"mapper\": "
                + "{\"template\": \"transform\", \"set\": {\"label\": \"legacy + '-' + name\", \"score\": \"n % 7\"}, "
                + "\"remove\": [\"legacy\"]}}]}");
        Files.writeString(folder.resolve("0002_gold_bonus.json"), "{\"steps\": [{\"gql\": \"SELECT * FROM Item WHERE "
                + "tier = 'gold'\", \"mapper\": {\"template\": \"set\", \"property\": \"bonus\", \"type\": \"integer\", "
                + "\"value\": \"100\"}}]}");
        Files.writeString(folder.resolve("0003_drop_obsolete.json"), "{\"steps\": [{\"kind\": \"Obsolete\", "
                + "\"mapper\": {\"template\": \"delete\"}}]}");
        return conn;
    }

    /** The items as migration 1 (and, with {@code bonus}, 2) leave them. */
    private static Map<Key, Entity> items(Datastore ds, boolean bonus) {
        Map<Key, Entity> expected = new HashMap<>();
        for (int i = 1; i <= ITEMS; i++) {
            Entity.Builder b = Entity.newBuilder(ds.newKeyFactory().setKind("Item").newKey(i)).set("name", "item-" + i)
                    .set("tier", i % 3 == 0 ? "gold" : "basic").set("n", i).set("label", "L" + i + "-item-" + i)
                    .set("score", i % 7);
            if (bonus && i % 3 == 0) {
                b.set("bonus", 100);
            }
            expected.put(b.build().getKey(), b.build());
        }
        return expected;
    }

    private static Map<Key, Entity> read(Datastore ds, String kind) {
        Map<Key, Entity> all = new HashMap<>();
        ds.run(Query.newEntityQueryBuilder().setKind(kind).build()).forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }

    private String[] migrate(String command, String... more) {
        List<String> args = new ArrayList<>(List.of("migrate", command, "--dir", folder.toString()));
        args.addAll(List.of(more));
        return args.toArray(new String[0]);
    }

    @Test
    void upAppliesEachMigrationOnceRefusesAChangedFileAndDownKeepsLaterWrites() throws Exception {
        ConnectionSpec conn = seeded("migrate-up");
        Datastore ds = SharedEmulator.connect(conn);
        InProcessCli cli = new InProcessCli(dir, conn);

        InProcessCli.Result plan = cli.run(migrate("plan")).ok();
        assertThat(plan.out()).contains("Plan: 3 migrations pending, 3 dry runs");
        Path step = dir.resolve("bonus.json");
        Files.writeString(step, "{\"template\": \"set\", \"property\": \"bonus\", \"type\": \"integer\", "
                + "\"value\": \"100\"}");
        InProcessCli.Result dry = cli.run("run", "--gql", "SELECT * FROM Item WHERE tier = 'gold'", "--mapper",
                step.toString(), "--dry-run").ok();
        List<String> priced = plan.out().lines().filter(l -> l.startsWith("Whole job")).toList();
        assertThat(priced).hasSize(3);
        assertThat(priced.get(1)).as("migration 2's price, as the dry run of its job gives it")
                .isEqualTo(dry.out().lines().filter(l -> l.startsWith("Whole job")).findFirst().orElseThrow());
        assertThat(read(ds, "Item").values()).as("a plan writes nothing").allMatch(e -> e.contains("legacy"));
        InProcessCli.Result up = cli.run(migrate("up", "--workers", "4", "--page-size", "10"));
        assertThat(up.exitCode()).as(up.err()).isZero();
        assertThat(read(ds, "Item")).as("renamed, filled, and the gold ones given a bonus").isEqualTo(items(ds, true));
        assertThat(read(ds, "Obsolete")).isEmpty();
        assertThat(ShardedCounter.existing(ds, "job:migrate-0002-1-1").totals()).as("each gold item written once")
                .containsEntry("written", (long) ITEMS / 3);

        JsonNode status = new ObjectMapper().readTree(cli.run(migrate("status", "--json")).ok().out());
        assertThat(status).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(status.get(i).get("number").asInt()).isEqualTo(i + 1);
            assertThat(status.get(i).get("state").asText()).isEqualTo("applied");
            assertThat(status.get(i).get("jobs").get(0).asText()).isEqualTo("migrate-000" + (i + 1) + "-1-1");
        }
        assertThat(cli.run(migrate("up")).ok().err()).contains("Nothing to apply");

        Path third = folder.resolve("0003_drop_obsolete.json");
        String was = Files.readString(third);
        Files.writeString(third, was.replace("Obsolete", "Item"));
        Files.writeString(folder.resolve("0004_more.json"), "{\"steps\": [{\"kind\": \"Item\", \"mapper\": "
                + "{\"template\": \"delete\"}}]}");
        cli.run(migrate("up")).refused("0003_drop_obsolete.json changed since it was applied");
        Files.writeString(third, was);
        Files.writeString(folder.resolve("0000_early.json"), "{\"steps\": [{\"kind\": \"Item\", \"mapper\": "
                + "{\"template\": \"delete\"}}]}");
        cli.run(migrate("up")).refused("0000_early.json is numbered before migration 0003");
        Files.delete(folder.resolve("0000_early.json"));
        Files.delete(folder.resolve("0004_more.json"));
        assertThat(read(ds, "Item")).as("nothing written by a refused up").isEqualTo(items(ds, true));

        // a later write to one gold item's bonus, made after the migrations: kept by down, and named
        Key later = ds.newKeyFactory().setKind("Item").newKey(3);
        ds.put(Entity.newBuilder(ds.get(later)).set("bonus", 5).build());
        InProcessCli.Result down = cli.run(migrate("down", "--to", "1"));
        assertThat(down.exitCode()).as(down.err()).isEqualTo(RevertCommand.EXIT_CONFLICTS);
        assertThat(down.out() + down.err()).as("the later write named").contains("Item:3")
                .contains("changed since job migrate-0002-1-1");
        Map<Key, Entity> expected = items(ds, false);
        expected.put(later, Entity.newBuilder(expected.get(later)).set("bonus", 5).build());
        assertThat(read(ds, "Item")).as("as after migration 1, but for the later write").isEqualTo(expected);
        assertThat(read(ds, "Obsolete")).as("migration 3 taken back").hasSize(10);
        JsonNode after = new ObjectMapper().readTree(cli.run(migrate("status", "--json")).ok().out());
        assertThat(after.findValuesAsText("state")).containsExactly("applied", "pending", "pending");

        // migration 3, taken back, is dropped from the folder: nothing in effect, nothing to apply, no obstacle
        Files.delete(third);
        InProcessCli.Result again = cli.run(migrate("up"));
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(read(ds, "Item")).as("migration 2 applied anew, over the later write too")
                .isEqualTo(items(ds, true));
        assertThat(read(ds, "Obsolete")).hasSize(10);
        JsonNode last = new ObjectMapper().readTree(cli.run(migrate("status", "--json")).ok().out());
        assertThat(last.findValuesAsText("state")).containsExactly("applied", "applied", "gone");
        assertThat(last.get(1).get("jobs").get(0).asText()).as("its second application's job")
                .isEqualTo("migrate-0002-2-1");
    }

    @Test
    void upKilledInsideTheSecondStepAndRunAgainEqualsOneRunAndTwoAtOnceApplyEachStepOnce() throws Exception {
        ConnectionSpec conn = seeded("migrate-kill");
        Datastore ds = SharedEmulator.connect(conn);
        try (ChildCli child = ChildCli.start(dir, conn, List.of(migrate("up", "--workers", "2", "--page-size", "4",
                "--hold-in-step", "2", ChildCli.holdFlag(server), "2")))) {
            child.awaitHeld();
            InProcessCli.Result busy = new InProcessCli(dir, conn).run(migrate("up"));
            assertThat(busy.exitCode()).as(busy.err()).isEqualTo(RunCommand.EXIT_JOB_BUSY);
            assertThat(busy.err()).contains("being applied or rolled back by runner");
            child.kill();
        }
        assertThat(read(ds, "Item")).as("killed inside migration 2").isNotEqualTo(items(ds, true));

        InProcessCli.Result up = new InProcessCli(dir, conn).run(migrate("up", "--workers", "4"));
        assertThat(up.exitCode()).as(up.err()).isZero();
        assertThat(up.err()).contains("Migration 0002 (0002_gold_bonus.json): resuming");
        assertThat(read(ds, "Item")).as("as one run leaves them").isEqualTo(items(ds, true));
        assertThat(read(ds, "Obsolete")).isEmpty();
        assertThat(ShardedCounter.existing(ds, "job:migrate-0001-1-1").totals()).as("each item transformed once")
                .containsEntry("written", (long) ITEMS);
        assertThat(ShardedCounter.existing(ds, "job:migrate-0002-1-1").totals()).as("each gold item set once")
                .containsEntry("written", (long) ITEMS / 3);

        // undo records pruned: a rollback is refused with why, before anything is taken back
        InProcessCli cli = new InProcessCli(dir, conn);
        cli.run("jobs", "--prune", "--keep-days", "0").ok();
        cli.run(migrate("down", "--to", "0")).refused("Migration 0003 (0003_drop_obsolete.json) cannot be rolled "
                + "back");
        assertThat(read(ds, "Item")).as("nothing taken back").isEqualTo(items(ds, true));
        assertThat(read(ds, "Obsolete")).isEmpty();
    }
}
