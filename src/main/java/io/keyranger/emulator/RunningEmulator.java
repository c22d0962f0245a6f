package io.keyranger.emulator;

import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.ServerType;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A started emulator. {@link #close()} stops it and everything it started; a JVM shutdown hook does the same if the
 * application exits without closing it (Ctrl-C, an uncaught error). On Unix a watchdog shell also ends the emulator
 * when this JVM dies without running hooks (SIGKILL), because its stdin pipe from this JVM then closes.
 */
public final class RunningEmulator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RunningEmulator.class);
    /** How long an in-memory emulator gets to exit before it is killed. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    /**
     * How long an emulator that keeps its data on disk gets: it saves its whole store when told to stop, and one
     * killed before that has lost everything written since its last periodic save (about every 30 s).
     */
    private static final Duration SAVE_GRACE = Duration.ofSeconds(60);

    private final Process process;
    private final ServerType server;
    private final int port;
    private final Path logFile;
    private final boolean savesToDisk;
    private final Thread shutdownHook;
    private volatile boolean closed;

    RunningEmulator(Process process, ServerType server, int port, Path logFile, boolean savesToDisk) {
        this.process = process;
        this.server = server;
        this.port = port;
        this.logFile = logFile;
        this.savesToDisk = savesToDisk;
        this.shutdownHook = new Thread(this::stop, "keyranger-emulator-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    public String hostPort() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public Process process() {
        return process;
    }

    /** Which emulator this is: the legacy Datastore emulator, or the Firestore emulator in Datastore mode. */
    public ServerType server() {
        return server;
    }

    public ConnectionSpec connection(String projectId) {
        return ConnectionSpec.emulator(hostPort(), projectId, server);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Asks the emulator to save its store now ({@code POST /persist}, answered once the file is written). It also
     * saves when told to stop, but not every time: a restart in a clean build once found a job's entities gone.
     */
    private void save() {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + hostPort() + "/persist"))
                .timeout(SAVE_GRACE).POST(HttpRequest.BodyPublishers.noBody()).build();
        try {
            int status = DatastoreConnector.emulatorHttp().send(request,
                    HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status != 200) {
                LOG.warn("The emulator on port {} did not save its data before stopping (HTTP {})", port, status);
            }
        } catch (IOException e) {
            LOG.warn("The emulator on port {} did not save its data before stopping: {}", port, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for {@code handle} to exit until {@code deadline}, then kills it; whether it had to be killed. */
    private static boolean awaitExit(ProcessHandle handle, long deadline) {
        try {
            long left = Math.max(1, deadline - System.nanoTime());
            handle.onExit().get(left, TimeUnit.NANOSECONDS);
            return false;
        } catch (TimeoutException | ExecutionException e) {
            handle.destroyForcibly();
            return true;
        } catch (InterruptedException e) {
            handle.destroyForcibly();
            Thread.currentThread().interrupt();
            return true;
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run: nothing left to remove
        }
    }

    private synchronized void stop() {
        if (closed) {
            return;
        }
        closed = true;
        LOG.info("Stopping the emulator on port {}", port);
        if (savesToDisk && process.isAlive()) {
            save();
        }
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        try {
            process.getOutputStream().close(); // ends the watchdog, which ends the emulator
        } catch (IOException ignored) {
            // the pipe is already gone
        }
        tree.forEach(ProcessHandle::destroy);
        Duration grace = savesToDisk ? SAVE_GRACE : STOP_GRACE;
        long deadline = System.nanoTime() + grace.toNanos();
        boolean killed = false;
        for (ProcessHandle handle : tree) {
            killed |= awaitExit(handle, deadline);
        }
        if (killed) {
            LOG.warn("The emulator on port {} did not stop within {} s and was killed{}", port, grace.toSeconds(),
                    savesToDisk ? ": what it stored since its last save is lost" : "");
        }
        try {
            Files.deleteIfExists(logFile);
        } catch (IOException e) {
            LOG.debug("could not delete emulator log {}", logFile, e);
        }
    }
}
