package io.keyranger.support;

import com.google.cloud.datastore.Datastore;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.cli.GuiStarter.StartupRequest;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.demo.DemoRequest;
import io.keyranger.ui.kinds.KindItem;
import io.keyranger.ui.backups.BackupsViewModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.application.Application;
import javafx.scene.Node;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * Tests that drive the real window in demo mode (80 accounts on the demo's own real emulator), one launch per test
 * class; each test starts with Account selected and the Entities tab showing.
 */
public abstract class DemoWindowTest {
    protected static Application app;
    /** The app's config folder (a fresh one per class). */
    protected static Path configDir;
    protected final FxRobot robot = new FxRobot();

    @BeforeAll
    static void launchInDemoMode() throws Exception {
        Path config = Files.createTempDirectory("keyranger-demo-window");
        configDir = config;
        FxToolkit.registerPrimaryStage();
        app = FxToolkit.setupApplication(() -> new KeyRangerApp(config,
                new StartupRequest(null, new DemoRequest(80, 0, null), null)));
    }

    @AfterAll
    static void close() throws Exception {
        FxToolkit.cleanupApplication(app);
        FxToolkit.cleanupStages();
    }

    @BeforeEach
    void accountSelected() {
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        Fx.waitUntil(120, () -> kinds.getItems().stream().anyMatch(k -> k.name().equals("Account")));
        Fx.get(() -> {
            kinds.getSelectionModel().clearSelection();
            return null;
        });
        selectKindInList("Account");
        Fx.waitUntil(30, () -> title().equals("Account: page 1, rows 1–50"));
        clickTab("Entities");
    }

    protected void selectKindInList(String kind) {
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        Fx.get(() -> {
            kinds.getSelectionModel().select(kinds.getItems().stream().filter(k -> k.name().equals(kind))
                    .findFirst().orElseThrow());
            return null;
        });
        Fx.waitUntil(30, () -> title().startsWith(kind + ":"));
    }

    protected void setText(String id, String text) {
        Fx.get(() -> {
            robot.lookup(id).queryTextInputControl().setText(text);
            return null;
        });
    }

    protected void clickTab(String title) {
        robot.clickOn(robot.lookup(".tab").match(n -> n.lookup(".tab-label") != null
                && title.equals(((Labeled) n.lookup(".tab-label")).getText()))
                .queryAs(Node.class));
    }

    /** The Entities tab's title line. */
    protected String title() {
        return Fx.get(() -> robot.lookup("#pageTitle").queryLabeled().getText());
    }

    protected String labelText(String id) {
        return Fx.get(() -> robot.lookup(id).queryLabeled().getText());
    }

    /** A client of the demo's emulator, independent of the app's. */
    protected Datastore demoDatastore() {
        String host = Fx.get(() -> robot.lookup("#connectionStatus").queryLabeled().getText())
                .replaceAll("^emulator (\\S+) / .*$", "$1");
        return DatastoreConnector.connect(ConnectionSpec.emulator(host, "demo-project"));
    }

    /** The demo emulator's own managed export of the demo's Account, in a new folder named after {@code folder}. */
    protected Path exportAccount(String folder) throws IOException, InterruptedException {
        String host = labelText("#connectionStatus").replaceAll("^emulator (\\S+) / .*$", "$1");
        return EmulatorExports.export(ConnectionSpec.emulator(host, "demo-project"),
                Files.createTempDirectory(folder), "{\"kinds\": [\"Account\"]}");
    }

    /** On the Backups tab: types {@code export}'s path, clicks Open, and selects its Account once listed. */
    protected void openExport(Path export) {
        setText("#exportLocation", export.toString());
        robot.clickOn("#openExport");
        ListView<BackupsViewModel.KindRow> kinds = robot.lookup("#exportKinds").queryListView();
        Fx.waitUntil(30, () -> kinds.getItems().stream().anyMatch(k -> k.kind().equals("Account")));
        Fx.get(() -> {
            kinds.getSelectionModel().select(kinds.getItems().stream().filter(k -> k.kind().equals("Account"))
                    .findFirst().orElseThrow());
            return null;
        });
    }
}
