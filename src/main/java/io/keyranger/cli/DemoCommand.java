package io.keyranger.cli;

import io.keyranger.demo.DemoAddress;
import io.keyranger.demo.DemoRequest;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.ServerType;
import io.keyranger.demo.DemoDataset;
import io.keyranger.demo.DemoSeeder;
import io.keyranger.emulator.CloudSdkLocator;
import io.keyranger.emulator.EmulatorManager;
import io.keyranger.emulator.RunningEmulator;
import io.keyranger.datastore.Cancellation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Starts a local emulator (the legacy Datastore one, or the Firestore one in Datastore mode), seeds the demo data, and
 * opens the GUI on it (or serves it headless).
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start a local Datastore emulator with demo data and open the app on it.")
public final class DemoCommand implements Runnable {
    private final KeyRangerCli.Context context;

    @Spec
    CommandSpec spec;

    @Option(names = "--entities", paramLabel = "N", defaultValue = "20000",
            description = "How many Account entities to seed (default: ${DEFAULT-VALUE}).")
    int entities;

    @Option(names = "--headless", description = "No window: print the emulator's address and keep it up until Ctrl-C.")
    boolean headless;

    @Option(names = "--exit", description = "With --headless: seed, print what was seeded, stop the emulator and exit.")
    boolean exit;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "0",
            description = "The emulator's port on 127.0.0.1 (default: a free one).")
    int port;

    @Option(names = "--emulator", paramLabel = "legacy|firestore", defaultValue = "legacy",
            description = "Which of the Cloud SDK's emulators: the legacy Datastore emulator, or the Firestore "
                    + "emulator in Datastore mode, the one Google's documentation now points to "
                    + "(default: ${DEFAULT-VALUE}).")
    String emulatorName;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "With --headless and the legacy emulator: keep the emulator's data in DIR between runs "
                    + "(default: in memory).")
    Path dataDir;

    @Option(names = "--cloud-sdk", paramLabel = "DIR",
            description = "The Google Cloud SDK's root directory (default: from settings, CLOUDSDK_ROOT or gcloud on PATH).")
    Path cloudSdk;

    public DemoCommand(KeyRangerCli.Context context) {
        this.context = context;
    }

    @Override
    public void run() {
        if (entities < 20) {
            throw new KeyRangerException("--entities must be at least 20 (got " + entities + ").");
        }
        if (exit && !headless) {
            throw new KeyRangerException("--exit only goes with --headless.");
        }
        ServerType type = emulatorType();
        if (dataDir != null && type == ServerType.FIRESTORE_EMULATOR) {
            throw new KeyRangerException("--data-dir goes with the legacy emulator only: the Firestore emulator keeps "
                    + "no data on disk in Datastore mode. Leave out --data-dir, or use --emulator legacy.");
        }
        if (dataDir != null && !headless) {
            throw new KeyRangerException("--data-dir only goes with --headless: the app's demo keeps its data in "
                    + "memory.");
        }
        if (!headless) {
            context.gui().open(new GuiStarter.StartupRequest(null, new DemoRequest(entities, port, sdkRoot(), type),
                    DemoDataset.ACCOUNT));
            return;
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        EmulatorManager manager = new EmulatorManager(CloudSdkLocator.fromEnvironment(sdkRoot()));
        RunningEmulator emulator = manager.start(type, port, dataDir);
        try {
            ConnectionSpec connection = emulator.connection(ConnectionSpec.DEFAULT_EMULATOR_PROJECT);
            Map<String, Long> seeded = seed(connection, err); // the address is printed once there is data behind it
            DemoAddress.where(emulator, connection.projectId()).forEach(out::println);
            out.println("Seeded:");
            seeded.forEach((kind, count) -> out.printf("  %-20s %,d%n", kind, count));
            out.println(DemoAddress.useWith(emulator, connection.projectId()));
            out.flush();
            if (!exit) {
                out.println("The emulator runs until you press Ctrl-C.");
                out.flush();
                emulator.process().waitFor();
                throw new KeyRangerException("The emulator stopped unexpectedly.");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            emulator.close();
        }
    }

    private Map<String, Long> seed(ConnectionSpec connection, PrintWriter err) {
        long started = System.nanoTime();
        Map<String, Long> seeded = new DemoSeeder(DatastoreConnector.connect(connection), connection.server()).seed(entities,
                new ConsoleProgress(err, "Seeding demo data"), Cancellation.NEVER);
        err.printf("Seeded in %.1f s%n", (System.nanoTime() - started) / 1e9);
        err.flush();
        return seeded;
    }

    private ServerType emulatorType() {
        return switch (emulatorName) {
            case "legacy" -> ServerType.EMULATOR;
            case "firestore" -> ServerType.FIRESTORE_EMULATOR;
            default -> throw new KeyRangerException("--emulator is legacy or firestore (got '" + emulatorName
                    + "').");
        };
    }

    private Path sdkRoot() {
        if (cloudSdk != null) {
            return cloudSdk;
        }
        String fromSettings = context.settings().load().cloudSdkPath();
        return fromSettings == null || fromSettings.isBlank() ? null : Path.of(fromSettings);
    }
}
