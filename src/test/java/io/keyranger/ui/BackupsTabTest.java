package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.GqlQuery;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.SideBySide;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.backup.managed.ManagedExport;
import io.keyranger.query.Gql;
import io.keyranger.ui.backups.BackupsViewModel;
import io.keyranger.ui.backups.DiffModel;
import java.awt.image.BufferedImage;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.Fx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * The Backups tab on the demo's emulator: its own managed export of Account is opened, browsed page by page,
 * queried and looked up on the client; after 5 accounts are deleted and 3 changed, the comparison finds exactly
 * them (checked against the emulator), shows one side by side, and a skip-changed restore from the Run tab brings
 * back the 5 and leaves the 3.
 */
class BackupsTabTest extends DemoWindowTest {
    @Test
    void anExportIsBrowsedComparedWithLiveDataAndRestored() throws Exception {
        Datastore datastore = demoDatastore();
        String host = Fx.get(() -> robot.lookup("#connectionStatus").queryLabeled().getText())
                .replaceAll("^emulator (\\S+) / .*$", "$1");
        Map<Key, Entity> before = accounts(datastore);
        Path export = EmulatorExports.export(ConnectionSpec.emulator(host, "demo-project"),
                Files.createTempDirectory("keyranger-backups"), "{\"kinds\": [\"Account\"]}");
        String gql = "SELECT * FROM Account WHERE tier = 'pro' AND balance > 5000";
        Set<Key> expected = new HashSet<>();
        datastore.run(Query.newGqlQueryBuilder(Query.ResultType.ENTITY, gql).setAllowLiteral(true).build())
                .forEachRemaining(e -> expected.add(((Entity) e).getKey()));

        clickTab("Backups");
        setText("#exportLocation", export.toString());
        robot.clickOn("#openExport");
        ListView<BackupsViewModel.KindRow> kinds =
                robot.lookup("#exportKinds").queryListView();
        Fx.waitUntil(30, () -> kinds.getItems().stream().anyMatch(k -> k.kind().equals("Account")));
        assertThat(Fx.get(() -> kinds.getItems().stream().filter(k -> k.kind().equals("Account")).findFirst()
                .orElseThrow().count())).isEqualTo(80);
        Fx.get(() -> {
            kinds.getSelectionModel().select(kinds.getItems().stream().filter(k -> k.kind().equals("Account"))
                    .findFirst().orElseThrow());
            return null;
        });
        TableView<Entity> entities = robot.lookup("#exportEntities").queryTableView();
        Fx.waitUntil(30, () -> entities.getItems().size() == 50 && Fx.get(() -> entities.getItems().stream()
                .allMatch(e -> e.getKey().getNamespace().isEmpty())));
        assertThat(labelText("#exportSummary")).contains("no index");
        assertThat(labelText("#exportPageInfo")).contains("Page 1: 50 entities").contains("no index");
        robot.clickOn("#exportNext");
        Fx.waitUntil(30, () -> entities.getItems().size() == 30);
        Set<Key> paged = new HashSet<>(keys(entities));
        robot.clickOn("#exportPrevious");
        Fx.waitUntil(30, () -> entities.getItems().size() == 50);
        paged.addAll(keys(entities));
        assertThat(paged).isEqualTo(before.keySet());

        setText("#exportQuery", gql);
        robot.clickOn("#runExportQuery");
        Fx.waitUntil(30, () -> labelText("#exportPageInfo").contains("Page 1: " + expected.size() + " entit"));
        assertThat(new HashSet<>(keys(entities))).isEqualTo(expected);

        List<Key> all = new ArrayList<>(before.keySet());
        List<Key> deleted = all.subList(0, 5);
        List<Key> changed = all.subList(5, 8);
        setText("#exportKey", Gql.keyLiteral(deleted.get(0)));
        robot.clickOn("#lookUpExportKey");
        Fx.waitUntil(30, () -> entities.getItems().size() == 1 && entities.getItems().get(0).getKey()
                .equals(deleted.get(0)));

        datastore.delete(deleted.toArray(new Key[0]));
        Map<Key, Entity> edited = new HashMap<>();
        for (Key key : changed) {
            edited.put(key, Entity.newBuilder(before.get(key)).set("balance", -1L).build());
        }
        datastore.put(edited.values().toArray(new Entity[0]));

        robot.clickOn("#compareExport");
        Fx.waitUntil(60, () -> labelText("#diffSummary").contains("removed"));
        assertThat(labelText("#diffSummary")).contains("72 the same, 3 changed, 5 removed and 0 added");
        assertThat(labelText("#restorePreview")).contains("Restore (skip-changed) would bring back 5 removed and "
                + "leave 3 changed since");
        TableView<ExportDiff.Example> examples = robot.lookup("#diffExamples").queryTableView();
        assertThat(examples.getItems()).extracting(ExportDiff.Example::key)
                .containsExactlyInAnyOrderElementsOf(all.subList(0, 8));
        ExportDiff.Example one = examples.getItems().stream().filter(x -> x.now() != null).findFirst().orElseThrow();
        Fx.get(() -> {
            examples.getSelectionModel().select(one);
            return null;
        });
        TableView<SideBySide.Row> sides = robot.lookup("#sideBySide").queryTableView();
        Fx.waitUntil(10, () -> sides.getItems().stream().anyMatch(r -> r.property().equals("balance")));
        SideBySide.Row balance = sides.getItems().stream().filter(r -> r.property().equals("balance")).findFirst()
                .orElseThrow();
        assertThat(balance.differs()).isTrue();
        assertThat(balance.exported()).isEqualTo(String.valueOf(before.get(one.key()).getLong("balance")));
        assertThat(balance.live()).isEqualTo("-1");
        assertThat(sides.getItems().stream().filter(r -> !r.property().equals("balance")))
                .noneMatch(SideBySide.Row::differs);
        wentOnWhereAStoppedComparisonStopped(host, export, examples, new HashSet<>(deleted),
                new HashSet<>(all.subList(0, 8)));
        String shot = System.getProperty("keyranger.screenshot");
        if (shot != null) { // the README's picture: -Dkeyranger.screenshot=assets/screenshot-backups.png
            snapshot(Path.of(shot));
        }

        robot.clickOn("#restoreExport"); // skip-changed, on the emulator without a confirmation
        Fx.waitUntil(10, () -> Fx.get(() -> robot.lookup("#mapperJson").queryTextInputControl().getText())
                .contains("\"mode\":\"skip-changed\""));
        robot.clickOn("#startJob");
        Fx.waitUntil(60, () -> labelText("#runSummary").contains(" done: "));
        Map<Key, Entity> after = accounts(datastore);
        Map<Key, Entity> wanted = new HashMap<>(before);
        wanted.putAll(edited);
        assertThat(after).isEqualTo(wanted);

        // the restore is a job like any other: the Run tab's job list shows it, done, over its kind
        ListView<AdaptiveSplitExecutor.ListedJob> jobs =
                robot.lookup("#pastJobs").queryListView();
        Fx.waitUntil(20, () -> Fx.get(() -> jobs.getItems().stream().anyMatch(j -> j.spec().kind().equals("Account")
                && j.spec().mapper().template().equals("import") && j.describeStatus().equals("done"))));
    }

    /**
     * A comparison stopped after 30 entities (as a cancel or a closed app leaves it) in the folder the tab keeps for
     * this kind; Compare goes on from there and finds the same as a whole comparison, with the same key lists.
     */
    private void wentOnWhereAStoppedComparisonStopped(String host, Path export,
                                                      TableView<ExportDiff.Example> examples, Set<Key> deleted,
                                                      Set<Key> differing) throws Exception {
        List<Path> folders;
        try (var listed = Files.list(configDir.resolve("comparisons"))) {
            folders = listed.toList();
        }
        assertThat(folders).hasSize(1); // the whole comparison above made it, and forgot its state when done
        Path folder = folders.get(0);
        assertThat(ExportDiff.stoppedIn(folder)).isFalse();
        assertThat(KeysFile.read(folder.resolve("removed.keys"), "demo-project", "")).isEqualTo(deleted);
        ConnectionSpec spec = ConnectionSpec.emulator(host, "demo-project");
        assertThat(folder).isEqualTo(DiffModel.folderOf(configDir.resolve("comparisons"), spec,
                Path.of(ManagedExport.open(export).metadata()), "", "Account"));
        long[] seen = {0};
        ExportDiff.Result stopped = ExportDiff.of(Session.open(spec), ManagedExport.open(export), "", "Account", null,
                null).pageSize(10).parallel(1).writeKeys(folder).run(true, n -> seen[0] = n,
                Cancellation.of(() -> seen[0] >= 30));
        assertThat(stopped.cancelled()).isTrue();
        assertThat(stopped.compared()).isEqualTo(30);

        robot.clickOn("#compareExport");
        Fx.waitUntil(60, () -> labelText("#diffSummary").contains("went on from"));
        assertThat(labelText("#diffSummary")).contains("72 the same, 3 changed, 5 removed and 0 added")
                .contains("went on from 30 compared before it stopped").contains(folder.toString());
        assertThat(examples.getItems()).extracting(ExportDiff.Example::key).isSubsetOf(differing);
        assertThat(ExportDiff.stoppedIn(folder)).isFalse();
        assertThat(KeysFile.read(folder.resolve("removed.keys"), "demo-project", "")).isEqualTo(deleted);
        assertThat(KeysFile.read(folder.resolve("changed.keys"), "demo-project", "")).hasSize(3)
                .doesNotContainAnyElementsOf(deleted).isSubsetOf(differing);
    }

    private static List<Key> keys(TableView<Entity> table) {
        return Fx.get(() -> table.getItems().stream().map(Entity::getKey).toList());
    }

    private static Map<Key, Entity> accounts(Datastore datastore) {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build()).forEachRemaining(e -> all.put(e.getKey(),
                e));
        return all;
    }

    /** The window as it looks now, as a PNG (for the README; never compared). */
    private void snapshot(Path file) throws Exception {
        WritableImage image = Fx.get(() -> robot.lookup("#exportKinds").query().getScene()
                .snapshot(null));
        int w = (int) image.getWidth();
        int h = (int) image.getHeight();
        BufferedImage png = new BufferedImage(w, h,
                BufferedImage.TYPE_INT_ARGB);
        PixelReader pixels = image.getPixelReader();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                png.setRGB(x, y, pixels.getArgb(x, y));
            }
        }
        ImageIO.write(png, "png", file.toFile());
    }
}
