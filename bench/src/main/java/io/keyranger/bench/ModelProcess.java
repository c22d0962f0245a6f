package io.keyranger.bench;

import io.keyranger.KeyRangerException;
import io.keyranger.model.ModelServer;
import io.keyranger.summary.ProcessCpu;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
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
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The production model in a JVM of its own ({@code keyranger model-server}), so that a bench measures the client's heap
 * and CPU alone; steered over the model's control paths ({@link ModelServer#CONTROL}).
 */
public final class ModelProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("on (127\\.0\\.0\\.1:\\d+)");
    /** Heap of the model's JVM: a million mixed entities take about 2 GiB there. */
    static final String MODEL_HEAP = "-Xmx6g";

    private final Process process;
    private final String hostPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private long[] timedSince;
    private long clientCpuNanos;
    private long modelCpuNanos;

    private ModelProcess(Process process, String hostPort) {
        this.process = process;
        this.hostPort = hostPort;
    }

    /**
     * This runtime's java launcher, if it has one: the installed app's trimmed runtime has none (its native commands
     * are stripped), and then a model can only run in this JVM.
     */
    public static Optional<Path> javaLauncher() {
        Path bin = Path.of(System.getProperty("java.home"), "bin");
        for (String name : List.of("java", "java.exe")) {
            Path candidate = bin.resolve(name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * Starts a model server with these settings in a new JVM on this one's class path ({@code java}, from
     * {@link #javaLauncher}), and waits until it listens. It keeps versions for {@code versionRetention}, or null for
     * the model's own (production's hour).
     */
    public static ModelProcess start(Path launcher, double medianMs, double p99Ms, int capacity,
                                     Duration versionRetention) {
        String java = launcher.toString();
        List<String> command = new ArrayList<>(List.of(java, MODEL_HEAP, "-cp", System.getProperty("java.class.path"),
                "io.keyranger.bench.cli.BenchMain", "model-server", "--port", "0", "--latency-ms", String.valueOf(medianMs),
                "--p99-ms", String.valueOf(p99Ms), "--capacity", String.valueOf(capacity)));
        if (versionRetention != null) {
            command.addAll(List.of("--version-retention", versionRetention.toSeconds() + "s"));
        }
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new KeyRangerException("Could not start the model server process (" + java + "): " + e.getMessage(),
                    e);
        }
        BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        try {
            String line;
            while ((line = lines.readLine()) != null) {
                seen.append(line).append('\n');
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    drain(lines);
                    return new ModelProcess(process, m.group(1));
                }
            }
        } catch (IOException e) {
            seen.append(e.getMessage());
        }
        process.destroyForcibly();
        throw new KeyRangerException("The model server process ended before it listened:\n" + seen);
    }

    /** Keeps reading the child's output so that it never blocks on a full pipe. */
    private static void drain(BufferedReader lines) {
        Thread drain = new Thread(() -> {
            try {
                while (lines.readLine() != null) {
                    // nothing to do with it
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "keyranger-model-output");
        drain.setDaemon(true);
        drain.start();
    }

    public String hostPort() {
        return hostPort;
    }

    /**
     * Tells the model whether the clock runs (see {@link ModelServer#quiet}), and meters the CPU both JVMs use while it
     * does: what a call costs this machine, which the simulation takes as its {@code --cpu-us-per-call}.
     */
    public void quiet(boolean value) {
        if (value && timedSince != null) {
            clientCpuNanos += clientCpu() - timedSince[0];
            modelCpuNanos += modelCpu() - timedSince[1];
            timedSince = null;
        }
        send(HttpRequest.newBuilder(uri("quiet")).POST(HttpRequest.BodyPublishers.ofString(String.valueOf(value))));
        if (!value && timedSince == null) {
            timedSince = new long[] {clientCpu(), modelCpu()};
        }
    }

    private static long clientCpu() {
        return ProcessCpu.processNanos();
    }

    private long modelCpu() {
        return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    /** "N calls, at most M at once; CPU while timed: client X s + model Y s, Z us a call". */
    public String stats() {
        String[] parts = statsParts();
        long calls = Long.parseLong(parts[0]);
        return String.format(Locale.ROOT, "%,d calls, at most %s at once; CPU while timed: client %.1f s + "
                + "model %.1f s, %.0f us a call", calls, parts[1], clientCpuNanos / 1e9, modelCpuNanos / 1e9,
                (clientCpuNanos + modelCpuNanos) / 1e3 / Math.max(1, calls));
    }

    /** Calls the model served so far while not quiet (the timed ones). */
    public long calls() {
        return Long.parseLong(statsParts()[0]);
    }

    /** "calls maxInFlight", split. */
    private String[] statsParts() {
        return send(HttpRequest.newBuilder(uri("stats")).GET()).trim().split(" ");
    }

    private URI uri(String what) {
        return URI.create("http://" + hostPort + ModelServer.CONTROL + what);
    }

    private String send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new KeyRangerException("The model server answered " + response.statusCode() + ": "
                        + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new KeyRangerException("The model server process does not answer: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeyRangerException("Interrupted while talking to the model server.", e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
