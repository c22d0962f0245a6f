package io.keyranger.ui.main;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.support.Fx;
import io.keyranger.support.WindowlessApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connection picker's model with no window and nothing connected, as the app loads it at start: a first start
 * offers the demo, and a corrupt profiles file is said (for the app's error dialog, which {@code ui.ConnectionsUiTest}
 * checks) and kept aside.
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
}
