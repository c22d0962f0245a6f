package io.keyranger.support;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.ServerType;
import io.keyranger.emulator.CloudSdkLocator;
import io.keyranger.emulator.EmulatorManager;
import io.keyranger.emulator.RunningEmulator;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real emulator of each kind for the whole test JVM, started on first use and stopped by its shutdown hook: the
 * legacy Datastore emulator, and (for the suites that guard data, on both) the Firestore emulator in Datastore mode.
 * Test classes isolate their data by using their own project id (both emulators keep projects apart).
 */
public final class SharedEmulator {
    private static final AtomicInteger PROJECTS = new AtomicInteger();
    private static final Map<ServerType, RunningEmulator> RUNNING = new EnumMap<>(ServerType.class);

    private SharedEmulator() {
    }

    /** The legacy Datastore emulator. */
    public static RunningEmulator get() {
        return get(ServerType.EMULATOR);
    }

    /** The emulator of type {@code type} ({@link ServerType#EMULATOR} or {@link ServerType#FIRESTORE_EMULATOR}). */
    public static synchronized RunningEmulator get(ServerType type) {
        RunningEmulator emulator = RUNNING.get(type);
        if (emulator == null || !emulator.isAlive()) {
            emulator = new EmulatorManager(CloudSdkLocator.fromEnvironment(null)).start(type, 0, null);
            RUNNING.put(type, emulator);
        }
        return emulator;
    }

    /** A connection to a project id no other test uses, on the legacy emulator. */
    public static ConnectionSpec freshProject(String prefix) {
        return freshProject(ServerType.EMULATOR, prefix);
    }

    /** A connection to a project id no other test uses, on the emulator of type {@code type}. */
    public static ConnectionSpec freshProject(ServerType type, String prefix) {
        return get(type).connection(prefix + "-" + PROJECTS.incrementAndGet());
    }

    /**
     * The emulators the suites that guard data run on, for a parameterized class's source: both, unless
     * {@code -Dkeyranger.emulators=legacy} (or {@code firestore}) names one.
     */
    public static List<ServerType> dataSuites() {
        String named = System.getProperty("keyranger.emulators", "legacy,firestore");
        List<ServerType> types = new ArrayList<>();
        for (String name : named.split(",")) {
            switch (name.strip()) {
                case "legacy" -> types.add(ServerType.EMULATOR);
                case "firestore" -> types.add(ServerType.FIRESTORE_EMULATOR);
                case "" -> { }
                default -> throw new IllegalArgumentException("-Dkeyranger.emulators takes legacy and firestore, "
                        + "not " + name);
            }
        }
        return types;
    }

    public static Datastore connect(ConnectionSpec spec) {
        return DatastoreConnector.connect(spec);
    }

    /** Puts entities in commits of 500, the most one commit takes. */
    public static void putAll(Datastore datastore, List<Entity> entities) {
        for (int i = 0; i < entities.size(); i += 500) {
            datastore.put(entities.subList(i, Math.min(entities.size(), i + 500))
                    .toArray(new Entity[0]));
        }
    }
}
