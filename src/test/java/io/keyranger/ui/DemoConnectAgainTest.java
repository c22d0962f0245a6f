package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.profile.ConnectionProfile;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.ui.main.ConnectionChoice;
import io.keyranger.app.KeyRangerApp;
import java.util.Set;
import java.util.stream.Collectors;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.DialogPane;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Connect while the demo runs: the same demo again stays on its emulator, with the user's edits, and starts none;
 * another connection stops the demo's emulator only after the user agreed to lose its data.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DemoConnectAgainTest extends DemoWindowTest {

    @Test
    @Order(1)
    void connectingToTheRunningDemoAgainKeepsItsEmulatorAndTheEdits() throws Exception {
        String host = demoHost();
        Set<Long> emulatorsBefore = emulatorProcesses();
        Datastore demo = demoDatastore();
        Key edited = demo.newKeyFactory().setKind("Account").newKey(1);
        demo.put(Entity.newBuilder(demo.get(edited)).set("balance", 123_456_789L).build());

        pick(ConnectionChoice.DEMO);
        robot.clickOn("#connectButton");
        Thread.sleep(2_000);

        assertThat(Fx.get(() -> robot.lookup("#connectButton").query().isDisabled()))
                .as("nothing is being started or seeded").isFalse();
        assertThat(emulatorProcesses()).as("no second emulator").isEqualTo(emulatorsBefore);
        assertThat(demoHost()).isEqualTo(host);
        assertThat(demoDatastore().get(edited).getLong("balance")).isEqualTo(123_456_789L);
    }

    @Test
    @Order(2)
    void pickingTheOtherDemoAsksFirstAndCancelKeepsThisOne() {
        String host = demoHost();
        Set<Long> emulatorsBefore = emulatorProcesses();
        pick(ConnectionChoice.FIRESTORE_DEMO);
        robot.clickOn("#connectButton");
        Fx.waitUntil(10, () -> robot.lookup("#stopDemoDialog").tryQuery().isPresent());
        DialogPane dialog = robot.lookup("#stopDemoDialog").queryAs(DialogPane.class);
        assertThat(Fx.get(dialog::getContentText)).contains("Demo (emulator)").contains("lost");
        robot.clickOn(Fx.get(() -> dialog.lookupButton(ButtonType.CANCEL)));

        assertThat(Fx.get(() -> robot.lookup("#connectButton").query().isDisabled())).isFalse();
        assertThat(emulatorProcesses()).isEqualTo(emulatorsBefore);
        assertThat(demoHost()).isEqualTo(host);
    }

    @Test
    @Order(3)
    void anotherConnectionStopsTheDemoOnceAgreed() {
        String port = demoHost().replaceAll(".*:", "");
        Set<Long> demoEmulator = emulatorProcesses().stream().filter(pid -> ProcessHandle.of(pid)
                .flatMap(p -> p.info().arguments()).map(args -> String.join(" ", args).contains("--port=" + port))
                .orElse(false)).collect(Collectors.toSet());
        assertThat(demoEmulator).isNotEmpty();
        ConnectionSpec other = SharedEmulator.freshProject("leave-demo");
        Fx.on(() -> ((KeyRangerApp) app).model().connections().saveProfile(new ConnectionProfile("elsewhere",
                other.emulatorHost(), other.projectId(), null, null, "", false)));
        robot.clickOn("#connectButton");
        Fx.waitUntil(10, () -> robot.lookup("#stopDemoDialog").tryQuery().isPresent());
        robot.clickOn(Fx.get(() -> robot.lookup("#stopDemoDialog").queryAs(DialogPane.class)
                .lookupButton(ButtonType.OK)));

        Fx.waitUntil(30, () -> demoHost().equals(other.emulatorHost()));
        Fx.waitUntil(30, () -> demoEmulator.stream().noneMatch(pid -> ProcessHandle.of(pid)
                .map(ProcessHandle::isAlive).orElse(false)));
        assertThat(DatastoreConnector.connect(other).run(com.google.cloud.datastore.Query.newKeyQueryBuilder()
                .setKind("Account").build()).hasNext()).isFalse();
    }

    private void pick(ConnectionChoice choice) {
        ComboBox<ConnectionChoice> picker = robot.lookup("#connectionChoice").queryComboBox();
        Fx.on(() -> picker.setValue(choice));
    }

    private String demoHost() {
        return labelText("#connectionStatus").replaceAll("^emulator (\\S+) / .*$", "$1");
    }

    /** The Datastore emulators (legacy or Firestore) this test JVM runs, by pid: the demo's and the shared ones. */
    private static Set<Long> emulatorProcesses() {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().arguments().map(args -> String.join(" ", args)).orElse("")
                        .contains("com.google.cloud.datastore.emulator."))
                .map(ProcessHandle::pid).collect(Collectors.toSet());
    }
}
