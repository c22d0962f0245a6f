package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.cli.GuiStarter.StartupRequest;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.ui.kinds.KindItem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.application.Application;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The app on the Firestore emulator in Datastore mode, which cannot list kinds: the kind list says why it shows only
 * the kinds KeyRanger knows, a kind typed in opens (with its properties from a sample), and it is listed from then on.
 */
class FirestoreKindListTest {
    private static ConnectionSpec conn;
    private static Application app;
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void seedAndLaunch() throws Exception {
        conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "fs-kinds");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> items = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            items.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Item").newKey(i)).set("n", i).build());
        }
        SharedEmulator.putAll(datastore, items);
        Path config = Files.createTempDirectory("keyranger-fs-kinds");
        FxToolkit.registerPrimaryStage();
        app = FxToolkit.setupApplication(() -> new KeyRangerApp(config, new StartupRequest(conn, null, null)));
    }

    @AfterAll
    static void close() throws Exception {
        FxToolkit.cleanupApplication(app);
        FxToolkit.cleanupStages();
    }

    @Test
    void theKindListSaysWhyItIsPartialAndATypedKindOpens() {
        Label note = robot.lookup("#kindListNote").query();
        Fx.waitUntil(60, () -> note.getText().contains("cannot list kinds") && note.isVisible());
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        assertThat(Fx.get(() -> kinds.getItems().size())).as("nothing known yet").isZero();

        TextField typed = robot.lookup("#typedKind").query();
        Fx.get(() -> { typed.setText("Item"); return null; });
        robot.clickOn("#openTypedKind");
        Fx.waitUntil(60, () -> kinds.getSelectionModel().getSelectedItem() != null
                && kinds.getSelectionModel().getSelectedItem().name().equals("Item"));
        ListView<PropertyInfo> properties = robot.lookup("#propertyList").queryListView();
        Fx.waitUntil(60, () -> properties.getItems().stream()
                .anyMatch(p -> p.name().equals("n") && p.types().equals(List.of("integer"))));
        Fx.waitUntil(60, () -> kinds.getItems().get(0).countProperty().get() != null);
        assertThat(Fx.get(() -> kinds.getItems().get(0).countProperty().get().count())).isEqualTo(30);

        // the kind is remembered in the database: a fresh listing shows it
        assertThat(new DatastoreGateway(SharedEmulator.connect(conn),
                ServerType.FIRESTORE_EMULATOR).kinds("", false)).containsExactly("Item");
    }
}
