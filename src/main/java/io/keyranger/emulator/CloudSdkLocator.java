package io.keyranger.emulator;

import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ServerType;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Finds the Cloud Datastore emulator of the installed Google Cloud SDK: a path from settings first, then
 * {@code CLOUDSDK_ROOT}, then the SDK that the {@code gcloud} on PATH belongs to. A path the user set and that is
 * wrong is reported, never silently skipped.
 */
public final class CloudSdkLocator {
    static final String EMULATOR_DIR = "platform/cloud-datastore-emulator";
    static final String EMULATOR_JAR = "CloudDatastore.jar";
    static final String FIRESTORE_DIR = "platform/cloud-firestore-emulator";
    static final String FIRESTORE_JAR = "cloud-firestore-emulator.jar";
    static final String INSTALL_HINT = "Install the Google Cloud SDK (https://cloud.google.com/sdk/docs/install), then its "
            + "emulator: 'gcloud components install cloud-datastore-emulator' (or, with apt, "
            + "'apt-get install google-cloud-cli-datastore-emulator').";
    static final String FIRESTORE_INSTALL_HINT = "Install the Google Cloud SDK "
            + "(https://cloud.google.com/sdk/docs/install), then its Firestore emulator: 'gcloud components install "
            + "cloud-firestore-emulator' (or, with apt, 'apt-get install google-cloud-cli-firestore-emulator').";

    private final Path configuredSdkRoot;
    private final Map<String, String> env;

    public CloudSdkLocator(Path configuredSdkRoot, Map<String, String> env) {
        this.configuredSdkRoot = configuredSdkRoot;
        this.env = env;
    }

    public static CloudSdkLocator fromEnvironment(Path configuredSdkRoot) {
        return new CloudSdkLocator(configuredSdkRoot, System.getenv());
    }

    /** The legacy Datastore emulator's jar, or a {@link KeyRangerException} that says how to install it. */
    public Path emulatorJar() {
        return emulatorJar(ServerType.EMULATOR);
    }

    /**
     * The jar of emulator {@code type} (the legacy Datastore emulator, or the Firestore emulator), or a
     * {@link KeyRangerException} that says what is missing and how to install it.
     */
    public Path emulatorJar(ServerType type) {
        if (configuredSdkRoot != null) {
            return jarIn(configuredSdkRoot, "the Cloud SDK path in settings", type);
        }
        String root = env.get("CLOUDSDK_ROOT");
        if (root != null && !root.isBlank()) {
            return jarIn(Path.of(root), "CLOUDSDK_ROOT", type);
        }
        Path gcloud = findOnPath("gcloud");
        if (gcloud == null) {
            throw new KeyRangerException("The Google Cloud SDK was not found: no 'gcloud' on PATH, no CLOUDSDK_ROOT and no "
                    + "Cloud SDK path in settings. " + hint(type));
        }
        return jarIn(sdkRootOf(gcloud), "the SDK of " + gcloud, type);
    }

    private static String hint(ServerType type) {
        return type == ServerType.FIRESTORE_EMULATOR ? FIRESTORE_INSTALL_HINT : INSTALL_HINT;
    }

    private static Path jarIn(Path sdkRoot, String source, ServerType type) {
        if (!Files.isDirectory(sdkRoot)) {
            throw new KeyRangerException("The Google Cloud SDK directory " + sdkRoot + " (from " + source
                    + ") does not exist. " + hint(type));
        }
        boolean firestore = type == ServerType.FIRESTORE_EMULATOR;
        String dir = firestore ? FIRESTORE_DIR : EMULATOR_DIR;
        String name = firestore ? FIRESTORE_JAR : EMULATOR_JAR;
        Path jar = sdkRoot.resolve(dir).resolve(name);
        if (!Files.isRegularFile(jar)) {
            throw new KeyRangerException("The Google Cloud SDK at " + sdkRoot + " (from " + source + ") has no "
                    + (firestore ? "Firestore" : "Datastore") + " emulator component (" + dir + "/" + name
                    + " is missing). " + hint(type));
        }
        return jar;
    }

    private Path findOnPath(String command) {
        String path = env.getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isBlank()) {
                continue;
            }
            for (String name : new String[] {command, command + ".cmd"}) {
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    /** gcloud lives in {@code SDK/bin}, often behind a symlink such as /usr/bin/gcloud. */
    private static Path sdkRootOf(Path gcloud) {
        try {
            Path real = gcloud.toRealPath();
            Path bin = real.getParent();
            return bin.getParent() == null ? bin : bin.getParent();
        } catch (IOException e) {
            throw new KeyRangerException("Cannot resolve the Google Cloud SDK from " + gcloud + ": " + e.getMessage(), e);
        }
    }
}
