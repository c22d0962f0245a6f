package io.keyranger.emulator;

import io.keyranger.KeyRangerException;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.ServerType;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts an emulator of the installed Google Cloud SDK on a loopback port and waits for its health check: the legacy
 * Cloud Datastore emulator (in memory with consistency 1.0, or on disk), or the Firestore emulator in Datastore mode
 * (in memory only). See {@link RunningEmulator} for how it is always stopped.
 */
public final class EmulatorManager {
    private static final Logger LOG = LoggerFactory.getLogger(EmulatorManager.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final String MAIN_CLASS = "com.google.cloud.datastore.emulator.CloudDatastore";
    private static final String FIRESTORE_MAIN_CLASS = "com.google.cloud.datastore.emulator.firestore.CloudFirestore";
    /**
     * Runs the emulator at a lower CPU priority (nice 10, where {@code nice} exists) and kills it when its stdin (a
     * pipe from this JVM) reaches end of file. The priority matters on small machines: the emulator can take every
     * core while a job runs, and the window (whose FX thread competes with it) would stall.
     */
    private static final String WATCHDOG = "exec 3<&0; "
            + "if command -v nice >/dev/null 2>&1; then set -- nice -n 10 \"$@\"; fi; "
            + "\"$@\" </dev/null & pid=$!; "
            + "trap 'kill $pid 2>/dev/null; exit 143' TERM INT HUP; "
            + "(cat <&3 >/dev/null; kill $pid 2>/dev/null) & wait $pid";

    private final CloudSdkLocator locator;

    public EmulatorManager(CloudSdkLocator locator) {
        this.locator = locator;
    }

    /** Starts an in-memory legacy emulator on {@code port}, or on a free port when it is 0. */
    public RunningEmulator start(int port) {
        return start(ServerType.EMULATOR, port, null);
    }

    /**
     * Starts a legacy emulator that keeps its data in {@code dataDir} (created if new), so that it survives a
     * restart; null keeps data in memory.
     */
    public RunningEmulator start(int port, Path dataDir) {
        return start(ServerType.EMULATOR, port, dataDir);
    }

    /**
     * Starts emulator {@code type} ({@link ServerType#EMULATOR} or {@link ServerType#FIRESTORE_EMULATOR}) on
     * {@code port} (0: a free one), keeping its data in {@code dataDir} or (null) in memory. The Firestore emulator
     * keeps none on disk in Datastore mode, so a data folder for it is refused.
     */
    public RunningEmulator start(ServerType type, int port, Path dataDir) {
        if (!type.isEmulator()) {
            throw new IllegalArgumentException(type + " is not an emulator");
        }
        boolean firestore = type == ServerType.FIRESTORE_EMULATOR;
        if (firestore && dataDir != null) {
            throw new KeyRangerException("The Firestore emulator keeps no data on disk in Datastore mode: leave out "
                    + "--data-dir, or use the legacy Datastore emulator (--emulator legacy) to keep data between runs.");
        }
        Path jar = locator.emulatorJar(type);
        int chosen = port == 0 ? freePort() : requireFree(port);
        if (dataDir != null) {
            createProjectDir(jar, dataDir);
        }
        Path log = tempLog();
        List<String> command = command(type, jar, chosen, dataDir);
        LOG.info("Starting the {} on 127.0.0.1:{}", name(type), chosen);
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new KeyRangerException("Cannot start the " + name(type) + " (" + jar + "): " + e.getMessage(), e);
        }
        RunningEmulator emulator = new RunningEmulator(process, type, chosen, log, dataDir != null);
        try {
            awaitHealthy(emulator, log);
            return emulator;
        } catch (RuntimeException e) {
            emulator.close();
            throw e;
        }
    }

    private static void createProjectDir(Path jar, Path dataDir) {
        if (Files.isDirectory(dataDir.resolve("WEB-INF"))) {
            return;
        }
        try {
            Process create = new ProcessBuilder(javaExecutable(), "-cp", jar.toString(), MAIN_CLASS, "create",
                    dataDir.toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!create.waitFor(60, TimeUnit.SECONDS) || create.exitValue() != 0) {
                create.destroyForcibly();
                throw new KeyRangerException("Could not create an emulator data directory in " + dataDir + ".");
            }
        } catch (IOException e) {
            throw new KeyRangerException("Could not create an emulator data directory in " + dataDir + ": "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeyRangerException("Interrupted while creating " + dataDir, e);
        }
    }

    /** The emulator's name in messages. */
    static String name(ServerType type) {
        return type == ServerType.FIRESTORE_EMULATOR ? "Firestore emulator (Datastore mode)" : "Datastore emulator";
    }

    private static List<String> command(ServerType type, Path jar, int port, Path dataDir) {
        List<String> command = new ArrayList<>();
        boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("win");
        if (!windows) {
            command.addAll(List.of("/bin/sh", "-c", WATCHDOG, "keyranger-emulator"));
        }
        if (type == ServerType.FIRESTORE_EMULATOR) {
            // what gcloud emulators firestore start runs; English error texts, which KeyRanger reads
            command.addAll(List.of(javaExecutable(), "-Duser.language=en", "-cp", jar.toString(),
                    FIRESTORE_MAIN_CLASS, "start", "--host=127.0.0.1", "--port=" + port,
                    "--database-mode=datastore-mode"));
            return command;
        }
        command.addAll(List.of(javaExecutable(), "-cp", jar.toString(), MAIN_CLASS, "start",
                "--host=127.0.0.1", "--port=" + port));
        if (dataDir == null) {
            command.add("--testing");
        } else {
            command.addAll(List.of("--store_on_disk=true", "--consistency=1.0", dataDir.toString()));
        }
        return command;
    }

    private static String javaExecutable() {
        return JavaLocator.javaExecutable();
    }

    private static void awaitHealthy(RunningEmulator emulator, Path log) {
        HttpClient client = DatastoreConnector.emulatorHttp();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + emulator.hostPort() + "/"))
                .timeout(Duration.ofSeconds(2)).GET().build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!emulator.isAlive()) {
                throw new KeyRangerException("The " + name(emulator.server()) + " exited while starting: "
                        + tail(log));
            }
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().trim().startsWith("Ok")) {
                    LOG.info("Emulator ready on {}", emulator.hostPort());
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KeyRangerException("Interrupted while waiting for the emulator to start", e);
            }
            sleep(150);
        }
        throw new KeyRangerException("The " + name(emulator.server()) + " did not answer its health check within "
                + START_TIMEOUT.toSeconds() + " s: " + tail(log));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new KeyRangerException("No free loopback port for the emulator: " + e.getMessage(), e);
        }
    }

    private static int requireFree(int port) {
        if (port < 1 || port > 65535) {
            throw new KeyRangerException("Port " + port + " is not a valid port (1-65535).");
        }
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return port;
        } catch (IOException e) {
            throw new KeyRangerException("Port " + port + " on 127.0.0.1 is already in use. Choose another port, or leave "
                    + "--port out to use a free one.");
        }
    }

    private static Path tempLog() {
        try {
            return Files.createTempFile("keyranger-emulator-", ".log");
        } catch (IOException e) {
            throw new KeyRangerException("Cannot create a log file for the emulator: " + e.getMessage(), e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no output)";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeyRangerException("Interrupted while waiting for the emulator to start", e);
        }
    }
}
