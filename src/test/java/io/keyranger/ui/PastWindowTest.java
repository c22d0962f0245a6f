package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Entity;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.cli.GuiStarter.StartupRequest;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.CutOffs;
import io.keyranger.support.DamagedKind;
import io.keyranger.support.Fx;
import io.keyranger.support.OfflineAppTest;
import io.keyranger.support.SharedEmulator;
import io.keyranger.ui.entities.EntitiesViewModel;
import java.nio.file.Files;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/**
 * The window's "As of" control on the Firestore emulator in Datastore mode: typed a moment before some entities were
 * changed, deleted and added, the grid pages the kind as it was then (checked against the emulator's own reads at
 * that moment), a banner across the window and the status bar say it shows the past, editing is off, nothing is cut
 * off at a laptop's window, and Back to live shows the present again. The view models' side:
 * {@code ui.main.PastBrowsingTest}.
 */
class PastWindowTest extends OfflineAppTest {
    @Test
    void asOfPagesThePastWithABannerAndBackToLiveShowsThePresent() throws Exception {
        DamagedKind damaged = DamagedKind.create("past-window");
        List<Entity> then = damaged.atBefore();
        List<Entity> now = damaged.now();
        Stage stage = launchOn(damaged);
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        assertThat(shown("#pastBanner")).isFalse();
        assertThat(Fx.get(() -> robot.lookup("#editEntity").query().isDisabled())).isFalse();
        List<String> liveCutOffs = cutOffs(stage);
        assertThat(liveCutOffs).as("the As of control cuts nothing off").noneMatch(c -> c.contains("asOf"));

        robot.clickOn("#asOfTime").write(damaged.before().toString());
        robot.clickOn("#openPast");
        Fx.waitUntil(60, () -> shown("#pastBanner") && title().startsWith("Item: page 1")
                && table.getItems().size() == 50 && table.getItems().get(0).getLong("n") == 1);
        assertThat(Fx.get(() -> List.copyOf(table.getItems()))).as("page 1 as it was")
                .containsExactlyElementsOf(then.subList(0, EntitiesViewModel.PAGE_SIZE));
        assertThat(labelText("#pastBanner")).isEqualTo("Looking at the database as of " + damaged.before()
                + " — read-only. Jobs, the Mapper and Backups work on live data.");
        assertThat(labelText("#connectionStatus")).endsWith(" · as of " + damaged.before() + " (read-only)");
        assertThat(labelText("#editingOff")).isEqualTo("Reading the past: editing is off.");
        for (String button : List.of("#newEntity", "#editEntity", "#deleteEntities", "#undoEdit", "#redoEdit")) {
            assertThat(Fx.get(() -> robot.lookup(button).query().isDisabled())).as(button).isTrue();
        }
        assertThat(cutOffs(stage)).as("the banner cuts nothing off at 1278x775").isSubsetOf(liveCutOffs);
        Node banner = robot.lookup("#bannerBackToLive").query();
        assertThat(Fx.get(() -> banner.localToScene(banner.getBoundsInLocal()).getMaxX()))
                .as("Back to live within the window").isLessThanOrEqualTo(1278);

        robot.clickOn("#nextPage");
        Fx.waitUntil(30, () -> title().startsWith("Item: page 2") && !table.getItems().isEmpty());
        List<Entity> page2 = Fx.get(() -> List.copyOf(table.getItems()));
        assertThat(page2).as("page 2 as it was: the deleted ones back, none of the added")
                .containsExactlyElementsOf(then.subList(EntitiesViewModel.PAGE_SIZE, then.size()));
        page2.forEach(shown -> assertThat(shown).isEqualTo(damaged.lookupAtBefore(shown.getKey())));

        // a time refused while the past is open: Back to live leaves neither it nor its refusal behind
        TextField time = robot.lookup("#asOfTime").queryAs(TextField.class);
        Fx.get(() -> {
            time.clear();
            return null;
        });
        robot.clickOn("#asOfTime").write("-2h");
        robot.clickOn("#openPast");
        Fx.waitUntil(30, () -> !labelText("#asOfError").isEmpty());
        assertThat(labelText("#asOfError")).contains("older than the database keeps");
        assertThat(shown("#pastBanner")).as("the refusal keeps the past open").isTrue();

        robot.clickOn("#bannerBackToLive");
        Fx.waitUntil(60, () -> !shown("#pastBanner") && title().startsWith("Item: page 1")
                && table.getItems().size() == 50 && table.getItems().get(0).getLong("n") == -1);
        assertThat(Fx.get(() -> List.copyOf(table.getItems()))).as("the present again")
                .containsExactlyElementsOf(now.subList(0, EntitiesViewModel.PAGE_SIZE));
        assertThat(labelText("#connectionStatus")).doesNotContain("as of");
        assertThat(Fx.get(() -> robot.lookup("#newEntity").query().isDisabled())).isFalse();
        assertThat(shown("#editingOff")).isFalse();
        assertThat(Fx.get(() -> time.getText())).as("the As of field no longer shows the refused time").isEmpty();
        assertThat(shown("#asOfError")).isFalse();
    }

    /**
     * The app compares the past with live: the Backups tab opens the database as of the moment before the damage,
     * as it opens an export, and Compare with live finds exactly what changed since (its view model's test,
     * {@code ui.backups.PastBackupsTest}, checks each key against the emulator and runs the restore); nothing cut off.
     */
    @Test
    void theBackupsTabComparesThePastWithLive() throws Exception {
        DamagedKind damaged = DamagedKind.create("past-backups-window");
        Stage stage = launchOn(damaged);
        robot.clickOn(robot.lookup(".tab").match(n -> n.lookup(".tab-label") != null
                && "Backups".equals(((Labeled) n.lookup(".tab-label")).getText())).queryAs(Node.class));
        robot.clickOn("#backupAsOf").write(damaged.before().toString());
        robot.clickOn("#openPastBackup");
        Fx.waitUntil(60, () -> labelText("#exportSummary").startsWith("The database as of " + damaged.before()));
        assertThat(labelText("#exportSummary")).startsWith("The database as of " + damaged.before() + ": "
                + DamagedKind.SEEDED + " entities in 1 kind.");
        Fx.waitUntil(10, () -> !robot.lookup("#compareExport").query().isDisabled());
        assertThat(Fx.get(() -> robot.lookup("#runExportQuery").query().isDisabled())).isTrue();
        robot.clickOn("#compareExport");
        Fx.waitUntil(60, () -> labelText("#diffSummary").contains("removed"));
        assertThat(labelText("#diffSummary")).contains(String.format("%d the same, 5 changed, 5 removed and 10 added"
                + " since %s", DamagedKind.SEEDED - 10, damaged.before()));
        TableView<?> examples = robot.lookup("#diffExamples").queryTableView();
        assertThat(Fx.get(() -> examples.getItems().size())).isEqualTo(20);
        assertThat(Fx.get(() -> examples.getColumns().get(0).getText())).isEqualTo("Since\nthen");
        assertThat(cutOffs(stage)).as("the Backups tab's past rows and columns cut nothing off")
                .noneMatch(c -> c.contains("Since") || c.contains("AsOf") || c.contains("as it was")
                        || c.contains("Property") || c.contains("Then") || c.contains("Live")
                        || c.contains("Undo the window") || c.contains("restoreUntil")
                        || c.contains("restoreRemoveAdded"));
    }

    /** Launches the app connected to {@code damaged}'s project with its kind open, at 1278x775. */
    private Stage launchOn(DamagedKind damaged) throws Exception {
        app = (KeyRangerApp) FxToolkit.setupApplication(() -> {
            try {
                return new KeyRangerApp(Files.createTempDirectory("keyranger-past-window"),
                        new StartupRequest(damaged.spec(), null, DamagedKind.KIND));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Stage stage = FxToolkit.toolkitContext().getRegisteredStage();
        Fx.get(() -> {
            stage.setMaximized(false);
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(1278);
            stage.setHeight(775);
            return null;
        });
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        Fx.waitUntil(60, () -> title().startsWith("Item: page 1") && table.getItems().size() == 50);
        return stage;
    }

    /** On the legacy emulator the control is off and says why when hovered; no banner. */
    @Test
    void onTheLegacyEmulatorTheControlIsOffWithTheReason() throws Exception {
        app = (KeyRangerApp) FxToolkit.setupApplication(() -> {
            try {
                return new KeyRangerApp(Files.createTempDirectory("keyranger-past-legacy"),
                        new StartupRequest(SharedEmulator.freshProject("past-legacy-window"),
                                null, null));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Fx.waitUntil(60, () -> labelText("#connectionStatus").startsWith("emulator "));
        assertThat(Fx.get(() -> robot.lookup("#asOfTime").query().isDisabled())).isTrue();
        assertThat(Fx.get(() -> robot.lookup("#openPast").query().isDisabled())).isTrue();
        Node control = robot.lookup("#asOfControl").query();
        Tooltip why = Fx.get(() -> (Tooltip) control.getProperties().get("javafx.scene.control.Tooltip"));
        assertThat(why).as("the row carries the reason").isNotNull();
        assertThat(Fx.get(why::getText)).isEqualTo(ServerType.NO_PAST);
        assertThat(shown("#pastBanner")).isFalse();
    }

    /** What the window shows cut off (see {@link CutOffs}). */
    private static List<String> cutOffs(Stage stage) {
        Parent root = Fx.get(() -> stage.getScene().getRoot());
        return Fx.get(() -> {
            root.applyCss();
            root.layout();
            return CutOffs.in(root);
        });
    }

    /** Whether the node and every parent of it are visible. */
    private boolean shown(String id) {
        return Fx.get(() -> {
            for (Node node = robot.lookup(id).query(); node != null; node = node.getParent()) {
                if (!node.isVisible()) {
                    return false;
                }
            }
            return true;
        });
    }

    private String title() {
        return labelText("#pageTitle");
    }

    private String labelText(String id) {
        return Fx.get(() -> robot.lookup(id).queryLabeled().getText());
    }
}
