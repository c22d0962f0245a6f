package io.keyranger.ui.main;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.demo.DemoRequest;
import io.keyranger.profile.ConnectionProfile;
import io.keyranger.profile.ProfileStore;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.WindowlessApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connection picker's model with no window, as the app loads it at start: a first start offers the demo, a
 * corrupt profiles file is said (for the app's error dialog, which {@code ui.ConnectionsUiTest} checks) and kept
 * aside, and a saved profile naming only an emulator's host connects as the emulator it is.
 */
class ConnectionsModelTest {
    @TempDir
    Path config;

    private static void loadProfiles(WindowlessApp app) {
        Fx.get(() -> {
            app.model().connections().loadProfiles();
            return null;
        });
    }

    @Test
    void firstStartOffersTheDemo() {
        try (WindowlessApp app = WindowlessApp.offline(config)) {
            loadProfiles(app);
            assertThat(Fx.get(() -> app.model().connections().selectedChoiceProperty().get()))
                    .isEqualTo(ConnectionChoice.DEMO);
            assertThat(Fx.get(() -> app.model().firstStartHint().get())).contains("No saved connections yet");
            assertThat(app.errors()).isEmpty();
        }
    }

    @Test
    void aCorruptProfilesFileIsSaidAndKeptAside() throws Exception {
        Files.writeString(config.resolve("profiles.json"), "[[[ broken");
        try (WindowlessApp app = WindowlessApp.offline(config)) {
            loadProfiles(app);
            assertThat(app.errors()).singleElement().asString().contains("profiles.json is not valid JSON")
                    .contains("kept as profiles.json.corrupt-").doesNotContain("Exception");
            try (Stream<Path> files = Files.list(config)) {
                assertThat(files.map(p -> p.getFileName().toString()))
                        .anyMatch(n -> n.startsWith("profiles.json.corrupt-"));
            }
            assertThat(Fx.get(() -> app.model().connections().selectedChoiceProperty().get()))
                    .isEqualTo(ConnectionChoice.DEMO);
        }
    }

    /** The profile does not say which emulator: the one at the host is asked, and the status bar names it. */
    @Test
    void aSavedProfileNamingOnlyTheHostConnectsAsTheFirestoreEmulator() {
        ConnectionSpec target = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "fs-profile");
        new ProfileStore(config).save(new ConnectionProfile("local-firestore", target.emulatorHost(),
                target.projectId(), null, null, null, false));
        try (WindowlessApp app = WindowlessApp.offline(config)) {
            ConnectionsModel connections = app.model().connections();
            loadProfiles(app);
            Fx.get(() -> {
                connections.selectedChoiceProperty().set(connections.choices().stream()
                        .filter(c -> c.toString().equals("local-firestore")).findFirst().orElseThrow());
                connections.connectSelected(new DemoRequest(80, 0, null));
                return null;
            });
            Fx.waitUntil(120, () -> app.model().status().connectionProperty().get().contains("emulator "));
            assertThat(Fx.get(() -> app.model().status().connectionProperty().get()))
                    .isEqualTo("Firestore emulator " + target.emulatorHost() + " / " + target.projectId());
            assertThat(app.errors()).isEmpty();
        }
    }
}
