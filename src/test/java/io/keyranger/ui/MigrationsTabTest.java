package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.job.ListedJob;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.ui.migrations.MigrationsViewModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javafx.scene.control.ButtonType;
import javafx.scene.control.DialogPane;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;

/**
 * The Migrations tab in the real window, on the demo: the README's example folder opened, planned (nothing written),
 * applied (each step a job on the Run tab) and rolled back to its first migration; what each leaves is written out by
 * hand from the demo's entities as read before, and compared with the emulator's own answers, entity by entity.
 */
class MigrationsTabTest extends DemoWindowTest {
    @Test
    void theExampleFolderIsPlannedAppliedOnTheRunTabAndRolledBack() throws Exception {
        Datastore demo = demoDatastore();
        Map<Key, Entity> accounts = read(demo, "Account");
        Map<Key, Entity> orgs = read(demo, "Org");
        Map<Key, Entity> events = read(demo, "Event");
        assertThat(events.values()).anyMatch(e -> e.getString("type").equals("refund"));

        Path folder = Files.createTempDirectory("keyranger-migrations");
        try (Stream<Path> examples = Files.list(Path.of("examples", "migrations"))) {
            for (Path file : examples.toList()) {
                Files.copy(file, folder.resolve(file.getFileName()));
            }
        }
        clickTab("Migrations");
        setText("#migrationsFolder", folder.toString());
        robot.clickOn("#openMigrations");
        TableView<MigrationsViewModel.Row> table = robot.lookup("#migrationsTable").queryTableView();
        Fx.waitUntil(60, () -> table.getItems().size() == 3);
        assertThat(Fx.get(() -> table.getItems().stream().map(MigrationsViewModel.Row::state).toList()))
                .containsExactly("pending", "pending", "pending");

        robot.clickOn("#planMigrations");
        Fx.waitUntil(120, () -> text("#migrationsPlan").contains("all of them:"));
        assertThat(text("#migrationsPlan")).contains("== Migration 0001 (0001_rename_plan_fill_credit.json), step 2/2")
                .contains("== Migration 0003 (0003_drop_refunds.json), step 1/1");
        assertThat(read(demo, "Account")).as("a plan writes nothing").isEqualTo(accounts);

        // a file added after the folder was opened: Apply acts only on what the tab shows
        Path added = folder.resolve("0004_more.json");
        Files.writeString(added, "{\"steps\": [{\"kind\": \"Account\", \"mapper\": {\"template\": \"delete\"}}]}");
        robot.clickOn("#applyMigrations");
        Fx.waitUntil(30, () -> robot.lookup("#errorMessage").tryQuery().isPresent());
        assertThat(labelText("#errorMessage")).contains("changed since they were opened");
        robot.clickOn(robot.lookup(".dialog-pane").queryAs(DialogPane.class).lookupButton(ButtonType.OK));
        Fx.waitUntil(10, () -> robot.lookup("#errorMessage").tryQuery().isEmpty());
        assertThat(read(demo, "Account")).as("nothing written").isEqualTo(accounts);
        Files.delete(added);

        robot.clickOn("#applyMigrations");
        Fx.waitUntil(180, () -> labelText("#migrationsMessage").equals("Applied."));
        Fx.waitUntil(30, () -> table.getItems().stream().allMatch(r -> r.state().equals("applied")));
        Map<Key, Entity> credited = new HashMap<>();
        accounts.forEach((k, e) -> credited.put(k, Entity.newBuilder(e).set("credit", e.getLong("balance") / 100)
                .set("paid", !e.getString("tier").equals("free")).build()));
        Map<Key, Entity> prioritised = new HashMap<>(credited);
        credited.forEach((k, e) -> {
            if (e.getString("tier").equals("pro")) {
                prioritised.put(k, Entity.newBuilder(e).set("priority", "high").build());
            }
        });
        Map<Key, Entity> renamed = new HashMap<>();
        orgs.forEach((k, e) -> renamed.put(k, Entity.newBuilder(e).remove("plan").set("tier", e.getString("plan"))
                .build()));
        Map<Key, Entity> kept = new HashMap<>(events);
        kept.values().removeIf(e -> e.getString("type").equals("refund"));
        assertThat(read(demo, "Account")).as("credit and paid filled, pro accounts given priority")
                .isEqualTo(prioritised);
        assertThat(read(demo, "Org")).as("plan renamed tier").isEqualTo(renamed);
        assertThat(read(demo, "Event")).as("refunds deleted").isEqualTo(kept);
        List<String> ran = Fx.get(() -> ((KeyRangerApp) app).model().run().pastJobs().stream()
                .map(ListedJob::spec).map(s -> s.jobId()).toList());
        assertThat(ran).as("each step a job of the Run tab").contains("migrate-0001-1-1", "migrate-0001-1-2",
                "migrate-0002-1-1", "migrate-0003-1-1");

        Fx.get(() -> {
            table.getSelectionModel().select(1);
            return null;
        });
        robot.clickOn("#rollBackMigrations");
        Fx.waitUntil(180, () -> labelText("#migrationsMessage").equals("Rolled back."));
        Fx.waitUntil(30, () -> table.getItems().stream().map(MigrationsViewModel.Row::state).toList()
                .equals(List.of("applied", "pending", "pending")));
        assertThat(read(demo, "Account")).as("as after migration 1").isEqualTo(credited);
        assertThat(read(demo, "Event")).as("the refunds back").isEqualTo(events);
        assertThat(read(demo, "Org")).isEqualTo(renamed);
    }

    private String text(String id) {
        return Fx.get(() -> robot.lookup(id).queryTextInputControl().getText());
    }

    private static Map<Key, Entity> read(Datastore datastore, String kind) {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind(kind).build()).forEachRemaining(e -> all.put(e.getKey(),
                e));
        return all;
    }
}
