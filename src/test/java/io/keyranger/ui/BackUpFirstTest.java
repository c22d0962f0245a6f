package io.keyranger.ui;

import io.keyranger.job.ListedJob;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ServerExports;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.formats.managed.ManagedExportWriter;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.support.MapperExamplesMenu;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javafx.scene.control.Button;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import org.junit.jupiter.api.Test;

/**
 * "Back up first?" → "Export, then run" on the demo's emulator, as a user does it: Mapper → "Add free credit" → Open
 * in Run tab → Start. The kind is exported (every Account in the managed export), then the increment runs once over
 * it (each balance up by exactly 10), and the increment records its backup (read back as {@code jobs} reads it, and
 * shown in the job list).
 */
class BackUpFirstTest extends DemoWindowTest {
    @Test
    void exportFirstBacksTheKindUpThenRunsTheChosenJob() throws Exception {
        Datastore datastore = demoDatastore();
        Map<Key, Long> before = balances(datastore);
        assertThat(before).hasSize(80);
        String home = System.getProperty("user.home");
        Path fakeHome = Files.createTempDirectory("keyranger-home");
        System.setProperty("user.home", fakeHome.toString()); // where ~/Account-backup goes
        // another project's backup of its own Account kind, newer than any this run writes, beside it
        Path otherBackup = otherProjectsBackup(fakeHome.resolve("Account-backup"));
        try {
            clickTab("Mapper");
            MapperExamplesMenu.choose(robot, "Add free credit");
            robot.clickOn("#useInRun");
            Fx.waitUntil(10, () -> robot.lookup("#mapperJson").queryTextInputControl().getText()
                    .contains("\"increment\""));
            robot.clickOn("#startJob");
            Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isPresent());
            DialogPane offer = robot.lookup(".dialog-pane").queryAs(DialogPane.class);
            assertThat(Fx.get(offer::getHeaderText)).isEqualTo("Back up first?");
            Button exportThenRun = Fx.get(() -> offer.getButtonTypes().stream()
                    .filter(b -> b.getText().equals("Export, then run")).map(b -> (Button) offer.lookupButton(b))
                    .findFirst().orElseThrow());
            robot.clickOn(exportThenRun);

            Fx.waitUntil(120, () -> labelText("#runSummary").contains("Backed up first to"));
        } finally {
            System.setProperty("user.home", home);
        }
        assertThat(labelText("#runSummary")).contains(" done: ");
        assertThat(Fx.get(() -> robot.lookup("#mapperJson").queryTextInputControl().getText()))
                .contains("\"increment\""); // the form still holds the job the user chose

        try (Stream<Path> written = Files.list(fakeHome.resolve("Account-backup"))) {
            assertThat(written.filter(f -> !f.equals(otherBackup))).as("this run's backup").hasSize(1);
        }
        Path ours;
        try (Stream<Path> written = Files.list(fakeHome.resolve("Account-backup"))) {
            ours = written.filter(f -> !f.equals(otherBackup)).findFirst().orElseThrow();
        }
        ManagedExport export = ManagedExport.open(ours);
        Map<Key, Long> exported = new HashMap<>();
        export.forEach("demo-project", "", e -> {
            if (e.getKey().getKind().equals("Account")) {
                exported.put(e.getKey(), e.getLong("balance"));
            }
        });
        assertThat(exported).isEqualTo(before);

        Map<Key, Long> after = balances(datastore);
        assertThat(after.keySet()).isEqualTo(before.keySet());
        before.forEach((key, balance) -> assertThat(after.get(key)).as("balance of %s", key).isEqualTo(balance + 10));

        ListView<ListedJob> jobs = robot.lookup("#pastJobs").queryListView();
        Fx.waitUntil(20, () -> jobs.getItems().stream().anyMatch(j -> j.spec().mapper().template()
                .equals("increment")));
        List<String> increments = Fx.get(() -> jobs.getItems().stream()
                .filter(j -> j.spec().mapper().template().equals("increment")).map(j -> j.spec().jobId()).toList());
        assertThat(increments).hasSize(1);
        String recorded = ServerExports.backupsOf(datastore, increments).get(increments.get(0));
        assertThat(recorded).as("the export this backup wrote, not the newest in the folder")
                .isEqualTo(ours.toString()).isEqualTo(Path.of(export.metadata()).getParent().toString());
        Fx.waitUntil(20, () -> jobs.lookupAll(".list-cell").stream()
                .map(n -> ((Labeled) n).getText())
                .anyMatch(t -> t != null && t.contains("  ·  " + increments.get(0) + "  ·  ")
                        && t.contains("backed up first to " + recorded)));
    }

    /** A whole managed export of one Account of another project, in {@code folder}, named as the newest there. */
    private static Path otherProjectsBackup(Path folder) throws Exception {
        Path written;
        try (ManagedExportWriter writer = ManagedExportWriter.create(Files.createTempDirectory("other-backup"))) {
            writer.write(Entity.newBuilder(Key.newBuilder("other-project", "Account", 1).build())
                    .set("balance", 1).build());
            writer.finish();
            written = writer.root();
        }
        Files.createDirectories(folder);
        return Files.move(written, folder.resolve("9999-12-31T23_59_59_999"));
    }

    private static Map<Key, Long> balances(Datastore datastore) {
        Map<Key, Long> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build())
                .forEachRemaining((Entity e) -> all.put(e.getKey(), e.getLong("balance")));
        return all;
    }
}
