package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.cli.GuiStarter.StartupRequest;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.ui.kinds.KindItem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.application.Application;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ListView;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/** {@code gui --emulator-host H --kind Account}: the window names that connection and shows the kind at once. */
class StartupKindTest {
    private static final int ACCOUNTS = 20_000;
    private static ConnectionSpec conn;
    private static Application app;
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void seedAndLaunch() throws Exception {
        conn = SharedEmulator.freshProject("startup");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> accounts = new ArrayList<>();
        for (int i = 1; i <= ACCOUNTS; i++) {
            accounts.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Account").newKey(i)).set("n", i).build());
        }
        SharedEmulator.putAll(datastore, accounts);
        Path config = Files.createTempDirectory("keyranger-startup");
        FxToolkit.registerPrimaryStage();
        app = FxToolkit.setupApplication(() -> new KeyRangerApp(config, new StartupRequest(conn, null, "Account")));
    }

    @AfterAll
    static void close() throws Exception {
        FxToolkit.cleanupApplication(app);
        FxToolkit.cleanupStages();
    }

    @Test
    void theGivenConnectionIsNamedAndTheKindsPageShowsBeforeTheCountsAreDone() {
        Fx.waitUntil(60, () -> robot.lookup("#pageTitle").queryLabeled().getText().startsWith("Account: page 1"));
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        KindItem account = Fx.get(() -> kinds.getItems().stream().filter(k -> k.name().equals("Account")).findFirst()
                .orElseThrow());
        assertThat(Fx.get(() -> account.countProperty().get()))
                .as("the page did not wait for the count of 20,000 keys").isNull();
        assertThat(Fx.get(() -> kinds.getSelectionModel().getSelectedItem())).isSameAs(account);
        ComboBox<?> choice = robot.lookup("#connectionChoice").queryComboBox();
        assertThat(Fx.get(() -> String.valueOf(choice.getValue())))
                .isEqualTo("emulator " + conn.emulatorHost() + " / " + conn.projectId()).doesNotContain("Demo");
        Fx.waitUntil(120, () -> account.countProperty().get() != null);
        assertThat(Fx.get(() -> account.countProperty().get().count())).isEqualTo(ACCOUNTS);
    }
}
