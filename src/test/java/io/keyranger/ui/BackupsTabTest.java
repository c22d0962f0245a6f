package io.keyranger.ui;

import io.keyranger.job.ListedJob;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.SideBySide;
import io.keyranger.support.CutOffs;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.ui.backups.BackupsViewModel;
import io.keyranger.app.KeyRangerApp;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.scene.control.ButtonType;
import javafx.scene.control.DialogPane;
import javafx.scene.control.ListView;
import javafx.scene.Node;
import javafx.scene.control.TableCell;
import javafx.scene.text.Text;
import javafx.scene.control.TableRow;
import javafx.scene.control.Tooltip;
import io.keyranger.datastore.ServerType;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import io.keyranger.job.RestoreMode;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.stage.Window;
import org.testfx.util.WaitForAsyncUtils;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * The Backups tab in the real window, on the demo's emulator: its own managed export of Account is opened from the
 * path box; after 5 accounts are deleted and 3 changed, Compare shows the comparison and one entity side by side, and
 * a skip-changed restore from the Run tab brings back the 5 and leaves the 3. An export that cannot be opened is said
 * in an error dialog, and leaves Compare and Restore… off. What the tab reads, compares and hands the Run tab is
 * checked on its view model ({@code ui.backups.BackupsViewModelTest}).
 */
class BackupsTabTest extends DemoWindowTest {
    @Test
    void anExportIsComparedWithLiveDataAndRestored() throws Exception {
        Datastore datastore = demoDatastore();
        Map<Key, Entity> before = accounts(datastore);
        Path export = exportAccount("keyranger-backups");

        clickTab("Backups");
        openExport(export);
        TableView<Entity> entities = robot.lookup("#exportEntities").queryTableView();
        Fx.waitUntil(30, () -> entities.getItems().size() == 50);

        List<Key> all = new ArrayList<>(before.keySet());
        List<Key> deleted = all.subList(0, 5);
        List<Key> changed = all.subList(5, 8);
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
        assertThat(Fx.get(() -> examples.getItems().size())).isEqualTo(8);
        ExportDiff.Example one = Fx.get(() -> examples.getItems().stream().filter(x -> x.now() != null).findFirst()
                .orElseThrow());
        Fx.get(() -> {
            examples.getSelectionModel().select(one);
            return null;
        });
        TableView<SideBySide.Row> sides = robot.lookup("#sideBySide").queryTableView();
        Fx.waitUntil(10, () -> sides.getItems().stream().anyMatch(r -> r.property().equals("balance")
                && r.differs() && r.live().equals("-1")));
        // at the default window's size, no column header of the two tables is cut
        Fx.get(() -> {
            Window w = examples.getScene().getWindow();
            w.setWidth(1278);
            w.setHeight(775);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(Fx.get(() -> {
            examples.getScene().getRoot().applyCss();
            examples.getScene().getRoot().layout();
            List<String> cut = new ArrayList<>(CutOffs.in(examples));
            cut.addAll(CutOffs.in(sides));
            return cut;
        })).isEmpty();
        // and the comparison's rows read whole at that size: each key, and what differs
        Map<String, List<String[]>> shown = Fx.get(() -> {
            examples.getScene().getRoot().applyCss();
            examples.getScene().getRoot().layout();
            return cellsShown(examples);
        });
        assertThat(shown.get("Key")).isNotEmpty().allSatisfy(c -> assertThat(c[1]).as("a key shown whole")
                .isEqualTo(c[0]));
        assertThat(shown.get("What differs")).isNotEmpty().allSatisfy(c -> assertThat(c[1])
                .as("what differs shown whole").isEqualTo(c[0]));
        String shot = System.getProperty("keyranger.screenshot");
        if (shot != null) { // the README's picture: -Dkeyranger.screenshot=assets/screenshot-backups.png
            snapshot(Path.of(shot));
        }

        // no row selected: Restore… asks before it takes the whole kind; Cancel hands the Run tab nothing
        Fx.on(() -> examples.getSelectionModel().clearSelection());
        String mapperJson = Fx.get(() -> robot.lookup("#mapperJson").queryTextInputControl().getText());
        robot.clickOn("#restoreExport");
        DialogPane whole = wholeKindQuestion();
        assertThat(whole.getContentText()).startsWith("No row of the comparison is selected, so this restores the "
                + "whole of Account from the export (5 removed, 3 changed and 0 added since)");
        robot.clickOn(whole.lookupButton(ButtonType.CANCEL));
        Fx.waitUntil(10, () -> robot.lookup("#restoreWholeKind").tryQuery().isEmpty());
        assertThat(Fx.get(() -> robot.lookup("#mapperJson").queryTextInputControl().getText())).isEqualTo(mapperJson);
        robot.clickOn("#restoreExport"); // agreed to: skip-changed, on the emulator without a project confirmation
        whole = wholeKindQuestion();
        robot.clickOn(whole.getButtonTypes().stream().filter(b -> b != ButtonType.CANCEL).map(whole::lookupButton)
                .findFirst().orElseThrow());
        Fx.waitUntil(10, () -> Fx.get(() -> robot.lookup("#mapperJson").queryTextInputControl().getText())
                .contains("\"mode\":\"skip-changed\""));
        assertThat(Fx.get(() -> robot.lookup("#mapperJson").queryTextInputControl().getText())).doesNotContain(
                "\"keys\"");
        robot.clickOn("#startJob");
        Fx.waitUntil(60, () -> labelText("#runSummary").contains(" done: "));
        Map<Key, Entity> after = accounts(datastore);
        Map<Key, Entity> wanted = new HashMap<>(before);
        wanted.putAll(edited);
        assertThat(after).isEqualTo(wanted);

        // the restore is a job like any other: the Run tab's job list shows it, done, over its kind
        ListView<ListedJob> jobs =
                robot.lookup("#pastJobs").queryListView();
        Fx.waitUntil(20, () -> Fx.get(() -> jobs.getItems().stream().anyMatch(j -> j.spec().kind().equals("Account")
                && j.spec().mapper().template().equals("import") && j.describeStatus().equals("done"))));
    }

    /**
     * Three rows of the comparison selected with the mouse (two removed, one changed; overwrite): Restore… hands the
     * Run tab a restore of exactly their keys, and after it the emulator holds those three as exported and the other
     * three removed and two changed as they were left.
     */
    @Test
    void restoreTakesExactlyTheSelectedRows() throws Exception {
        Datastore datastore = demoDatastore();
        Map<Key, Entity> before = accounts(datastore);
        Path export = exportAccount("keyranger-backups-selected");
        clickTab("Backups");
        openExport(export);
        List<Key> all = new ArrayList<>(before.keySet());
        List<Key> deleted = all.subList(10, 15);
        List<Key> changed = all.subList(15, 18);
        datastore.delete(deleted.toArray(new Key[0]));
        Map<Key, Entity> edited = new HashMap<>();
        for (Key key : changed) {
            edited.put(key, Entity.newBuilder(before.get(key)).set("balance", -7L).build());
        }
        datastore.put(edited.values().toArray(new Entity[0]));

        robot.clickOn("#compareExport");
        Fx.waitUntil(60, () -> labelText("#diffSummary").contains("3 changed, 5 removed and 0 added"));
        Fx.on(() -> robot.lookup("#restoreMode").queryComboBox().getSelectionModel().select(RestoreMode.OVERWRITE));
        TableView<ExportDiff.Example> examples = robot.lookup("#diffExamples").queryTableView();
        List<Key> picked = List.of(deleted.get(1), deleted.get(3), changed.get(2));
        clickRow(examples, picked.get(0), false);
        clickRow(examples, picked.get(1), true);
        clickRow(examples, picked.get(2), true);
        assertThat(Fx.get(() -> examples.getSelectionModel().getSelectedItems().stream().map(ExportDiff.Example::key)
                .toList())).containsExactlyInAnyOrderElementsOf(picked);
        assertThat(labelText("#restorePreview")).startsWith("Restore (overwrite) of the 3 selected rows would bring "
                + "back 2 removed and overwrite 1 changed since");

        robot.clickOn("#restoreExport"); // rows selected: no question, the Run tab gets exactly their keys
        Fx.waitUntil(10, () -> Fx.get(() -> robot.lookup("#mapperJson").queryTextInputControl().getText())
                .contains("\"keys\""));
        assertThat(robot.lookup("#restoreWholeKind").tryQuery()).isEmpty();
        robot.clickOn("#startJob");
        Fx.waitUntil(60, () -> labelText("#runSummary").contains(" done: "));

        Map<Key, Entity> wanted = new HashMap<>(before);
        wanted.putAll(edited);
        deleted.forEach(wanted::remove);
        picked.forEach(k -> wanted.put(k, before.get(k)));
        assertThat(accounts(datastore)).isEqualTo(wanted);
        datastore.put(before.values().toArray(new Entity[0])); // the class's other tests start from all 80
        Fx.on(() -> robot.lookup("#restoreMode").queryComboBox().getSelectionModel().select(RestoreMode.SKIP_CHANGED));
    }

    /** Each column's cells in sight, by the column's title: {its text, the text its skin draws}. */
    private static Map<String, List<String[]>> cellsShown(TableView<?> table) {
        Map<String, List<String[]>> shown = new HashMap<>();
        for (Node node : table.lookupAll(".table-cell")) {
            TableCell<?, ?> cell = (TableCell<?, ?>) node;
            if (!cell.isVisible() || cell.isEmpty() || cell.getItem() == null || cell.getTableColumn() == null) {
                continue;
            }
            String whole = cell.getItem().toString();
            String drawn;
            if (cell.getGraphic() instanceof Text text) { // text that wraps: whole while its lines fit the cell
                drawn = text.getBoundsInParent().getMaxY() <= cell.getHeight() - cell.snappedBottomInset() + 0.5
                        && text.getBoundsInParent().getMaxX() <= cell.getWidth() + 0.5 ? text.getText() : "cut";
            } else {
                drawn = CutOffs.shownText(cell);
            }
            shown.computeIfAbsent(cell.getTableColumn().getText(), c -> new ArrayList<>())
                    .add(new String[] {whole, drawn});
        }
        return shown;
    }

    private DialogPane wholeKindQuestion() {
        Fx.waitUntil(10, () -> robot.lookup("#restoreWholeKind").tryQuery().isPresent());
        return robot.lookup("#restoreWholeKind").queryAs(DialogPane.class);
    }

    /** Clicks the row of {@code key} in {@code table}, with Ctrl held when {@code adding} to the selection. */
    private void clickRow(TableView<ExportDiff.Example> table, Key key, boolean adding) {
        ExportDiff.Example row = Fx.get(() -> table.getItems().stream().filter(x -> x.key().equals(key)).findFirst()
                .orElseThrow());
        Fx.on(() -> table.scrollTo(row));
        WaitForAsyncUtils.waitForFxEvents();
        Node cell = robot.from(table).lookup(".table-row-cell").match(n -> ((TableRow<?>) n).getItem() == row)
                .query();
        if (adding) {
            robot.press(KeyCode.CONTROL).clickOn(cell).release(KeyCode.CONTROL);
        } else {
            robot.clickOn(cell);
        }
    }

    /**
     * After an export was opened, a path typed but not opened turns Compare, Restore… and queries off; a corrupt export
     * that cannot be opened is said in an error dialog, and leaves them off: a click on Restore… hands the Run tab
     * nothing.
     */
    @Test
    void aFailedOpenIsSaidInADialogAndLeavesCompareAndRestoreOff() throws Exception {
        Path good = exportAccount("keyranger-backups-good");
        Path corrupt = Files.createTempDirectory("keyranger-backups-corrupt");
        Files.write(corrupt.resolve("2020-01-01T00_00_00_000.overall_export_metadata"),
                new byte[] {0x0a, (byte) 0xff, (byte) 0xff, 0x01, 0x02, 0x7f, 0x13, 0x00});

        clickTab("Backups");
        openExport(good);
        Fx.waitUntil(10, () -> !disabled("#compareExport") && !disabled("#restoreExport"));
        String opened = labelText("#exportSummary");
        ListView<?> kinds = robot.lookup("#exportKinds").queryListView();
        List<?> listed = Fx.get(() -> List.copyOf(kinds.getItems()));
        setText("#exportLocation", corrupt.toString());
        Fx.waitUntil(5, () -> disabled("#compareExport") && disabled("#restoreExport") && disabled("#runExportQuery"));
        assertThat(labelText("#exportLocationNotice")).contains("names another export").contains(good.toString());

        robot.clickOn("#openExport");
        Fx.waitUntil(30, () -> robot.lookup("#errorMessage").tryQuery().isPresent());
        DialogPane error = robot.lookup(".dialog-pane").queryAs(DialogPane.class);
        robot.clickOn(error.lookupButton(ButtonType.OK));
        Fx.waitUntil(10, () -> robot.lookup("#errorMessage").tryQuery().isEmpty());

        // the export open before stays open, and stays off while the path box names another
        assertThat(labelText("#exportSummary")).isEqualTo("Could not open " + corrupt + "; still shown: " + opened);
        assertThat(Fx.get(() -> List.copyOf(kinds.getItems()))).isEqualTo(listed);
        assertThat(disabled("#compareExport")).isTrue();
        assertThat(disabled("#restoreExport")).isTrue();
        String mapperJson = Fx.get(() -> robot.lookup("#mapperJson").queryTextInputControl().getText());
        robot.clickOn("#restoreExport"); // off: nothing is handed to the Run tab
        assertThat(Fx.get(() -> robot.lookup("#mapperJson").queryTextInputControl().getText())).isEqualTo(mapperJson);
        setText("#exportLocation", good.toString());
        Fx.waitUntil(5, () -> !disabled("#compareExport") && !disabled("#restoreExport"));
    }

    /**
     * On the legacy emulator "Open as of" and its time box are off, and their row says why when hovered (as the
     * Entities tab's As of does); clicking the button does nothing, and the export open stays open.
     */
    @Test
    void openAsOfIsOffOnTheLegacyEmulatorWithTheReason() throws Exception {
        Path export = exportAccount("keyranger-backups-legacy-past");
        clickTab("Backups");
        openExport(export);
        Fx.waitUntil(30, () -> !disabled("#compareExport"));
        String summary = labelText("#exportSummary");
        assertThat(disabled("#openPastBackup")).isTrue();
        assertThat(disabled("#backupAsOf")).isTrue();
        Node row = robot.lookup("#backupPastRow").query();
        Tooltip why = Fx.get(() -> (Tooltip) row.getProperties().get("javafx.scene.control.Tooltip"));
        assertThat(why).as("the row carries the reason").isNotNull();
        assertThat(Fx.get(why::getText)).isEqualTo(ServerType.NO_PAST);
        robot.moveTo(row);
        Fx.waitUntil(10, () -> why.isShowing());

        robot.clickOn("#openPastBackup");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(robot.lookup("#errorMessage").tryQuery()).isEmpty();
        assertThat(labelText("#exportSummary")).isEqualTo(summary);
        assertThat(disabled("#compareExport")).isFalse();
    }

    /**
     * Another database in the real window: a saved connection to another project of the demo's emulator is picked in
     * the connection box and opened; its Account is counted there, compared with the demo's (the 10 accounts the
     * other project lacks are "added" here, as the emulator holds both), and the copy's options (sample, transform,
     * remove what the source lacks) show for it, and not for an export.
     */
    @Test
    void anotherDatabaseOpensFromASavedConnectionAndIsCompared() throws Exception {
        Datastore demo = demoDatastore();
        String host = labelText("#connectionStatus").replaceAll("^emulator (\\S+) / .*$", "$1");
        String project = "backups-other-" + System.nanoTime() % 100_000;
        Datastore other = io.keyranger.datastore.DatastoreConnector.connect(
                io.keyranger.datastore.ConnectionSpec.emulator(host, project));
        List<Entity> copied = new ArrayList<>();
        accounts(demo).values().stream().limit(70).forEach(e -> copied.add(Entity.newBuilder(
                Key.newBuilder(e.getKey()).setProjectId(project).build(), e).build()));
        other.put(copied.toArray(new Entity[0]));
        Fx.on(() -> ((KeyRangerApp) app).model().connections().saveProfile(
                new io.keyranger.profile.ConnectionProfile("other", host, project, null, null, "", false)));

        clickTab("Backups");
        assertThat(Fx.get(() -> robot.lookup("#copyOptions").query().isVisible())).isFalse();
        javafx.scene.control.ComboBox<?> box = robot.lookup("#backupDatabase").queryComboBox();
        Fx.waitUntil(10, () -> box.getItems().size() == 1);
        robot.clickOn(box);
        robot.type(KeyCode.DOWN).type(KeyCode.ENTER); // the saved connection, picked from its list
        Fx.waitUntil(60, () -> !disabled("#openOtherBackup")); // what the test before started has ended
        robot.clickOn("#openOtherBackup");
        ListView<BackupsViewModel.KindRow> kinds = robot.lookup("#exportKinds").queryListView();
        Fx.waitUntil(120, () -> labelText("#exportSummary").startsWith("project " + project)
                || robot.lookup("#errorMessage").tryQuery().isPresent());
        assertThat(robot.lookup("#errorMessage").tryQuery().map(n -> Fx.get(() -> n.toString() + " "
                + ((javafx.scene.control.Labeled) n).getText()))).isEmpty();
        assertThat(labelText("#exportSummary")).startsWith("project " + project + " (connection other): 70 entities");
        assertThat(Fx.get(() -> kinds.getItems().stream().map(BackupsViewModel.KindRow::kind).toList()))
                .containsExactly("Account");
        Fx.get(() -> {
            kinds.getSelectionModel().select(kinds.getItems().stream().filter(k -> k.kind().equals("Account"))
                    .findFirst().orElseThrow());
            return null;
        });
        Fx.waitUntil(10, () -> !disabled("#compareExport"));
        assertThat(Fx.get(() -> robot.lookup("#copyOptions").query().isVisible())).isTrue();
        robot.clickOn("#compareExport");
        Fx.waitUntil(60, () -> labelText("#diffSummary").contains("removed"));
        assertThat(labelText("#diffSummary")).contains("70 the same, 0 changed, 0 removed and 10 added");
    }

    private boolean disabled(String id) {
        return Fx.get(() -> robot.lookup(id).query().isDisabled());
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
