package io.keyranger;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Where KeyRanger keeps its files: XDG directories on Linux, the platform equivalents elsewhere.
 * {@code KEYRANGER_CONFIG_DIR} (or the {@code keyranger.config.dir} system property) overrides the config directory,
 * which tests use to stay out of the user's home.
 */
public final class AppDirs {
    private AppDirs() {
    }

    public static Path configDir() {
        return configDir(System.getenv(), System.getProperty("os.name", ""), System.getProperty("user.home"));
    }

    static Path configDir(Map<String, String> env, String osName, String home) {
        String override = System.getProperty("keyranger.config.dir", env.get("KEYRANGER_CONFIG_DIR"));
        if (notBlank(override)) {
            return Path.of(override);
        }
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.contains("win")) {
            String appData = env.get("APPDATA");
            return notBlank(appData) ? Path.of(appData, "KeyRanger") : Path.of(home, "AppData", "Roaming", "KeyRanger");
        }
        if (os.contains("mac")) {
            return Path.of(home, "Library", "Application Support", "KeyRanger");
        }
        String xdg = env.get("XDG_CONFIG_HOME");
        return notBlank(xdg) ? Path.of(xdg, "keyranger") : Path.of(home, ".config", "keyranger");
    }

    /** Log files live beside the configuration, in {@code logs/}. */
    public static Path logDir() {
        return configDir().resolve("logs");
    }

    private static boolean notBlank(String value) {
        return value != null && !value.isBlank();
    }
}
