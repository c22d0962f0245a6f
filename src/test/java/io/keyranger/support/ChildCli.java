package io.keyranger.support;

import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.ServerType;
import io.keyranger.testhooks.HoldHook;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code keyranger} in a child process, for tests that kill, freeze or race real runners. Its output is read as it
 * comes, so a test waits for a line ({@link #awaitLine}) instead of polling the datastore; with the hidden
 * {@code run --hold-after-chunks N} it waits for "keyranger: held" and {@link #release()}s the child when it is done.
 */
public final class ChildCli implements AutoCloseable {
    /**
     * A child lives for seconds, most of it starting up: the first compiler alone and one collector thread spend a
     * fraction of the CPU that full tiered compilation would, on a machine whose other test JVMs and emulators need it.
     */
    public static final List<String> SHORT_LIVED_JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    private final Process process;
    private final StringBuffer log = new StringBuffer();
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ChildCli(Process process) {
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    log.append(line).append('\n');
                    lines.add(line);
                }
            } catch (IOException ended) {
                // the child is gone
            }
        }, "child-cli-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code keyranger ARGS --emulator-host … --project …} with its config in {@code configDir}. */
    public static ChildCli start(Path configDir, ConnectionSpec conn, List<String> args) throws IOException {
        return start(configDir, conn, List.of(), args, List.of());
    }

    /** As above, the child JVM given {@code jvm} options too (system properties: -Dname=value). */
    public static ChildCli start(Path configDir, ConnectionSpec conn, List<String> jvm, List<String> args)
            throws IOException {
        return start(configDir, conn, jvm, args, List.of());
    }

    /**
     * As {@link #start}, with Ctrl-C (SIGINT) as a terminal gives it, for a test that sends it: a test JVM started in
     * the background (by a script, or CI) ignores SIGINT, and its children inherit that, so the child is started with
     * it set back to the default (GNU env's {@code --default-signal}).
     */
    public static ChildCli startTakingCtrlC(Path configDir, ConnectionSpec conn, List<String> args) throws IOException {
        return start(configDir, conn, List.of(), args, List.of("env", "--default-signal=INT"));
    }

    /**
     * {@code java MAIN ARGS} of this classpath (another launcher, as Beam's), taking Ctrl-C as {@link #startTakingCtrlC}
     * does.
     */
    public static ChildCli startMainTakingCtrlC(String mainClass, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT", Path.of(
                System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path")));
        command.addAll(SHORT_LIVED_JVM);
        command.add(mainClass);
        command.addAll(args);
        return new ChildCli(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    private static ChildCli start(Path configDir, ConnectionSpec conn, List<String> jvm, List<String> args,
                                  List<String> prefix) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), "-Dkeyranger.config.dir=" + configDir));
        String keeps = System.getProperty(ReadWindow.FIRESTORE_EMULATOR_KEEPS_PROPERTY);
        if (keeps != null) { // the suite's window for the Firestore emulator (pom-app.xml), unless jvm sets another
            command.add("-D" + ReadWindow.FIRESTORE_EMULATOR_KEEPS_PROPERTY + "=" + keeps);
        }
        command.addAll(jvm);
        command.addAll(SHORT_LIVED_JVM);
        command.add("io.keyranger.app.Main");
        command.addAll(args);
        command.addAll(List.of("--emulator-host", conn.emulatorHost(), "--project", conn.projectId()));
        return new ChildCli(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** Waits for an output line containing {@code text}; fails with the output so far if the child ends first. */
    public String awaitLine(String text, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left <= 0 ? null : lines.poll(Math.min(left, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
            if (line != null && line.contains(text)) {
                return line;
            }
            if (line == null && (left <= 0 || (!process.isAlive() && lines.isEmpty()))) {
                throw new AssertionError("no line with '" + text + "' from the child (alive: " + process.isAlive()
                        + "); its output:\n" + log);
            }
        }
    }

    /**
     * The hold a test of a killed or frozen runner on {@code server} gives its child: inside a chunk's transaction on
     * the legacy emulator, whose transactions hold no locks; between transactions on the Firestore emulator, which
     * keeps a dead runner's locks for 60 s (KillAndResumeTest kills inside one there too, and
     * {@code -Dkeyranger.emulators.all=true} holds inside everywhere).
     */
    public static String holdFlag(ServerType server) {
        return server == ServerType.FIRESTORE_EMULATOR && !Boolean.getBoolean("keyranger.emulators.all")
                ? "--hold-between-chunks" : "--hold-after-chunks";
    }

    /** Waits until the child holds its job (run --hold-after-chunks or --hold-between-chunks). */
    public void awaitHeld() throws InterruptedException {
        awaitLine(HoldHook.HELD, 120);
    }

    /** Lets a held child go on. */
    public void release() throws IOException {
        OutputStream in = process.getOutputStream();
        in.write('\n');
        in.flush();
    }

    /** Waits for the child to end; returns its exit code. */
    public int waitFor(int seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the child did not end within " + seconds + " s; its output:\n" + log);
        }
        return process.exitValue();
    }

    /** SIGKILL: no shutdown hook runs. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** Sends a signal by name (STOP, CONT). */
    public void signal(String name) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    public long pid() {
        return process.pid();
    }

    /** Everything the child printed so far. */
    public String log() {
        return log.toString();
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            signal("CONT");
            kill();
        }
    }
}
