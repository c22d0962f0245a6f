package io.keyranger.support;

import com.google.cloud.datastore.Datastore;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.emulator.CloudSdkLocator;
import io.keyranger.emulator.EmulatorManager;
import io.keyranger.emulator.RunningEmulator;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real Cloud Datastore emulator for the whole test JVM, started on first use and stopped by its shutdown hook.
 * Test classes isolate their data by using their own project id.
 */
public final class SharedEmulator {
    private static final AtomicInteger PROJECTS = new AtomicInteger();
    private static RunningEmulator emulator;

    private SharedEmulator() {
    }

    public static synchronized RunningEmulator get() {
        if (emulator == null || !emulator.isAlive()) {
            emulator = new EmulatorManager(CloudSdkLocator.fromEnvironment(null)).start(0);
        }
        return emulator;
    }

    /** A connection to a project id no other test uses. */
    public static ConnectionSpec freshProject(String prefix) {
        return ConnectionSpec.emulator(get().hostPort(), prefix + "-" + PROJECTS.incrementAndGet());
    }

    public static Datastore connect(ConnectionSpec spec) {
        return DatastoreConnector.connect(spec);
    }

    /** Puts entities in commits of 500, the most one commit takes. */
    public static void putAll(Datastore datastore, java.util.List<com.google.cloud.datastore.Entity> entities) {
        for (int i = 0; i < entities.size(); i += 500) {
            datastore.put(entities.subList(i, Math.min(entities.size(), i + 500))
                    .toArray(new com.google.cloud.datastore.Entity[0]));
        }
    }
}
