package io.keyranger.emulator;

import io.keyranger.KeyRangerException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the Java runtime that runs the Datastore emulator (a Java program of the Cloud SDK): $JAVA as the emulator's
 * own script honours it, then the runtime running KeyRanger when it has a java launcher (not so in the installed
 * app, whose trimmed runtime has none), then $JAVA_HOME, then java on the PATH.
 */
final class JavaLocator {
    private JavaLocator() {
    }

    static String javaExecutable() {
        return find(System.getenv(), Path.of(System.getProperty("java.home")), isWindows())
                .orElseThrow(() -> new KeyRangerException("The Datastore emulator needs a Java runtime (11 or later) and "
                        + "none was found: install one (for example 'apt-get install openjdk-17-jre-headless'), or "
                        + "set JAVA_HOME or JAVA to it."))
                .toString();
    }

    static Optional<Path> find(Map<String, String> env, Path ownJavaHome, boolean windows) {
        String launcher = windows ? "java.exe" : "java";
        List<Path> candidates = new ArrayList<>();
        String explicit = env.get("JAVA");
        if (explicit != null && !explicit.isBlank()) {
            return Optional.of(Path.of(explicit));
        }
        candidates.add(ownJavaHome.resolve("bin").resolve(launcher));
        String javaHome = env.get("JAVA_HOME");
        if (javaHome != null && !javaHome.isBlank()) {
            candidates.add(Path.of(javaHome, "bin", launcher));
        }
        String path = env.getOrDefault("PATH", env.getOrDefault("Path", ""));
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isBlank()) {
                candidates.add(Path.of(dir, launcher));
            }
        }
        return candidates.stream().filter(p -> Files.isRegularFile(p) && Files.isExecutable(p)).findFirst();
    }

    private static boolean isWindows() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("win");
    }
}
