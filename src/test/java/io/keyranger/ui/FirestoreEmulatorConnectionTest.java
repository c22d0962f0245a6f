package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.app.KeyRangerApp;
import io.keyranger.cli.GuiStarter.StartupRequest;
import io.keyranger.datastore.ServerType;
import io.keyranger.demo.DemoRequest;
import io.keyranger.support.Fx;
import io.keyranger.ui.kinds.KindItem;
import io.keyranger.ui.main.ConnectionChoice;
import java.nio.file.Path;
import javafx.application.Application;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ListView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The window on the Firestore emulator in Datastore mode: its demo (given at start-up or chosen in the picker) is
 * connected as that emulator, and the status bar says so. A saved profile naming only its host:
 * {@code ui.main.ConnectionsModelTest}.
 */
class FirestoreEmulatorConnectionTest {
    @TempDir
    Path config;

    private Application app;
    private final FxRobot robot = new FxRobot();

    private void launch(StartupRequest request) throws Exception {
        FxToolkit.registerPrimaryStage();
        app = FxToolkit.setupApplication(() -> new KeyRangerApp(config, request));
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupApplication(app);
        FxToolkit.cleanupStages();
    }

    private String connectionStatus() {
        return Fx.get(() -> robot.lookup("#connectionStatus").queryLabeled().getText());
    }

    private ComboBox<ConnectionChoice> picker() {
        return robot.lookup("#connectionChoice").queryComboBox();
    }

    @Test
    void theDemoStartedOnTheFirestoreEmulatorSaysSoInTheStatusBar() throws Exception {
        launch(new StartupRequest(null, new DemoRequest(80, 0, null, ServerType.FIRESTORE_EMULATOR), null));
        Fx.waitUntil(120, () -> connectionStatus().contains("emulator "));
        assertThat(connectionStatus()).matches("Firestore emulator 127\\.0\\.0\\.1:\\d+ / demo-project");
        assertThat(Fx.get(() -> picker().getValue())).as("connecting again starts the same demo")
                .isEqualTo(ConnectionChoice.FIRESTORE_DEMO);
        // the server cannot list kinds: the demo's are known because the seeder recorded them
        ListView<KindItem> kinds = robot.lookup("#kindList")
                .queryListView();
        Fx.waitUntil(60, () -> kinds.getItems().stream().anyMatch(k -> k.name().equals("Account")));
    }

    @Test
    void thePickerOffersTheDemoOnTheFirestoreEmulator() throws Exception {
        launch(StartupRequest.none());
        assertThat(Fx.get(() -> picker().getItems().stream().map(Object::toString).toList()))
                .containsExactly("Demo (emulator)", "Demo (Firestore emulator)");
        Fx.get(() -> {
            picker().setValue(ConnectionChoice.FIRESTORE_DEMO);
            return null;
        });
        robot.clickOn("#connectButton");
        Fx.waitUntil(120, () -> connectionStatus().contains("emulator "));
        assertThat(connectionStatus()).matches("Firestore emulator 127\\.0\\.0\\.1:\\d+ / demo-project");
    }
}
