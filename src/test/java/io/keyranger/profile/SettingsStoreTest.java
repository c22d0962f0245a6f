package io.keyranger.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsStoreTest {
    @TempDir
    Path dir;

    @Test
    void aSettingsFileFromBeforeTheWindowWasRememberedStillLoads() throws Exception {
        Files.writeString(dir.resolve("settings.json"), """
                {
                  "cloudSdkPath" : "/opt/google-cloud-sdk",
                  "darkTheme" : true
                }
                """);
        AppSettings settings = new SettingsStore(dir).load();
        assertThat(settings.cloudSdkPath()).isEqualTo("/opt/google-cloud-sdk");
        assertThat(settings.darkTheme()).isTrue();
        assertThat(settings.window()).isNull();
    }

    @Test
    void theWindowsLayoutIsSavedAsANestedObjectAndReadBack() throws Exception {
        SettingsStore store = new SettingsStore(dir);
        WindowLayout layout = new WindowLayout(40, 30, 1100, 700, true, Map.of("main", 0.3, "entities", 0.55));
        store.save(new AppSettings(null, false).withWindow(layout));

        String json = Files.readString(dir.resolve("settings.json"));
        assertThat(json).contains("\"window\" : {").contains("\"maximized\" : true").contains("\"main\" : 0.3");
        AppSettings loaded = new SettingsStore(dir).load();
        assertThat(loaded.window()).isEqualTo(layout);
        assertThat(loaded.withDarkTheme(true).window()).isEqualTo(layout);
    }

    @Test
    void aHandWrittenWindowEntryWithMissingOrBadValuesLoadsWithoutThem() throws Exception {
        Files.writeString(dir.resolve("settings.json"), """
                {"darkTheme": false, "window": {"maximized": true, "dividers": {"main": 7, "entities": 0.4},
                 "unknown": 1}}
                """);
        WindowLayout window = new SettingsStore(dir).load().window();
        assertThat(window.hasSize()).isFalse();
        assertThat(window.maximized()).isTrue();
        assertThat(window.dividers()).containsExactly(Map.entry("entities", 0.4));
    }
}
