package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.app.KeyRangerApp;
import io.keyranger.cli.GuiStarter.StartupRequest;
import io.keyranger.profile.ConnectionProfile;
import io.keyranger.profile.ProfileStore;
import io.keyranger.support.Fx;
import io.keyranger.ui.main.ConnectionChoice;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.application.Application;
import javafx.scene.Node;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.DialogPane;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/** A corrupt profiles file at start, and saving a new connection, through the real window's dialogs. */
class ConnectionsUiTest {
    @TempDir
    Path config;

    private Application app;
    private final FxRobot robot = new FxRobot();

    private void launch() throws Exception {
        FxToolkit.registerPrimaryStage();
        app = FxToolkit.setupApplication(() -> new KeyRangerApp(config, StartupRequest.none()));
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupApplication(app);
        FxToolkit.cleanupStages();
    }

    /**
     * The app loads the profiles at start and says a corrupt file in an error dialog; with no saved connection left,
     * the picker offers the demo and says so. What is said and kept aside: {@code ui.main.ConnectionsModelTest}.
     */
    @Test
    void corruptProfilesFileShowsADialogAndTheDemoIsOffered() throws Exception {
        Files.writeString(config.resolve("profiles.json"), "[[[ broken");
        launch();
        Fx.waitUntil(10, () -> robot.lookup("#errorMessage").tryQuery().isPresent());
        String message = Fx.get(() -> robot.lookup("#errorMessage").queryLabeled().getText());
        assertThat(message).contains("profiles.json is not valid JSON");
        closeDialogs();
        ComboBox<ConnectionChoice> choice = robot.lookup("#connectionChoice").queryComboBox();
        assertThat(Fx.get(choice::getValue)).isEqualTo(ConnectionChoice.DEMO);
        assertThat(Fx.get(() -> robot.lookup("#firstStartHint").queryLabeled().getText()))
                .contains("No saved connections yet");
    }

    @Test
    void newConnectionIsValidatedAndSaved() throws Exception {
        launch();
        robot.clickOn("#newProfileButton");
        Fx.waitUntil(10, () -> robot.lookup("#profileName").tryQuery().isPresent());
        DialogPane pane = robot.lookup(".dialog-pane").queryAs(DialogPane.class);
        Node ok = pane.lookupButton(ButtonType.OK);
        robot.clickOn("#profileName").write("local-dev");
        robot.clickOn("#profileHost").write("localhost");
        assertThat(Fx.get(ok::isDisabled)).as("a host without a port is refused").isTrue();
        assertThat(Fx.get(() -> robot.lookup("#profileHostError").queryLabeled().getText())).contains("HOST:PORT");
        robot.write(":99999");
        assertThat(Fx.get(ok::isDisabled)).as("a port out of range is refused").isTrue();
        robot.eraseText(6).write(":8081");
        Fx.waitUntil(5, () -> !ok.isDisabled());
        robot.clickOn("#profileNamespace").write("a b");
        assertThat(Fx.get(ok::isDisabled)).as("a namespace Datastore refuses").isTrue();
        assertThat(Fx.get(() -> robot.lookup("#profileNamespaceError").queryLabeled().getText()))
                .contains("letters, digits");
        robot.eraseText(3);
        robot.clickOn("#profileDatabase").write("DB");
        assertThat(Fx.get(ok::isDisabled)).as("a database id Firestore refuses").isTrue();
        robot.eraseText(2);
        Fx.waitUntil(5, () -> !ok.isDisabled());
        assertThat(Fx.get(() -> robot.lookup("#profileHostError").queryLabeled().getText())).isEmpty();
        robot.clickOn(ok);
        Fx.waitUntil(10, () -> Files.exists(config.resolve("profiles.json")));
        ConnectionProfile saved = new ProfileStore(config).require("local-dev");
        assertThat(saved.emulatorHost()).isEqualTo("localhost:8081");
        ComboBox<ConnectionChoice> choice = robot.lookup("#connectionChoice").queryComboBox();
        assertThat(Fx.get(() -> choice.getValue().toString())).isEqualTo("local-dev");
    }

    private void closeDialogs() {
        Fx.get(() -> {
            for (Window window : Window.getWindows().stream().toList()) {
                if (window.getScene() != null && window.getScene().getRoot() instanceof DialogPane) {
                    window.hide();
                }
            }
            return null;
        });
    }
}
