package io.keyranger.profile;

import java.nio.file.Path;

/** Reads and saves {@link AppSettings} in {@code settings.json} under the config directory. */
public final class SettingsStore {
    private final Path file;

    public SettingsStore(Path configDir) {
        this.file = configDir.resolve("settings.json");
    }

    /** The settings; throws {@link CorruptFileException} once if the file was corrupt. */
    public AppSettings load() {
        return JsonFiles.read(file, AppSettings.class, AppSettings.DEFAULTS);
    }

    public void save(AppSettings settings) {
        JsonFiles.write(file, settings);
    }
}
