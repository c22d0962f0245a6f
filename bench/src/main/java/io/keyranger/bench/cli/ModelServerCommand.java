package io.keyranger.bench.cli;

import io.keyranger.model.ModelServer;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** Runs the production model server on its own, to explore it with the other commands. */
@Command(name = "model-server", mixinStandardHelpOptions = true,
        description = "Run KeyRanger's model of production Datastore on loopback (benchmarks only) until Ctrl-C. "
                + "Connect other commands to it with --model-host.")
public final class ModelServerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--port", defaultValue = "0", paramLabel = "N", description = "Port (default: a free one).")
    int port;

    @Option(names = "--latency-ms", defaultValue = "20", paramLabel = "MS",
            description = "Median latency per call (default: ${DEFAULT-VALUE}).")
    double latencyMs;

    @Option(names = "--p99-ms", defaultValue = "100", paramLabel = "MS",
            description = "99th percentile latency per call (default: ${DEFAULT-VALUE}).")
    double p99Ms;

    @Option(names = "--capacity", defaultValue = "256", paramLabel = "N",
            description = "Calls served at once; more wait their turn (default: ${DEFAULT-VALUE}).")
    int capacity;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seeds the latency draws.")
    long seed;

    @Option(names = "--version-retention", defaultValue = "1h", paramLabel = "TIME",
            description = "How far back reads of the past (read_time) can go: 1h as production keeps (default), up to "
                    + "7d as with point-in-time recovery; in s, m, h or d (e.g. 90m).")
    String versionRetention;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65_535) {
            throw new ParameterException(spec.commandLine(), "--port must be between 0 and 65535, not " + port + ".");
        }
        if (latencyMs < 0 || p99Ms < latencyMs) {
            throw new ParameterException(spec.commandLine(), "--p99-ms must be at least --latency-ms, both >= 0.");
        }
        if (capacity < 1) {
            throw new ParameterException(spec.commandLine(), "--capacity must be at least 1.");
        }
        Duration retention = retention();
        ModelServer server = ModelServer.start(port, ModelServer.Options.DEFAULT.withLatency(latencyMs, p99Ms)
                .withCapacity(capacity).withSeed(seed).withVersionRetention(retention));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "keyranger-model-stop"));
        PrintWriter out = spec.commandLine().getOut();
        out.printf("Production model server on %s (median %.0f ms, p99 %.0f ms, %d calls at once, versions kept %s)."
                + " Benchmarks only.%n", server.hostPort(), latencyMs, p99Ms, capacity, versionRetention);
        out.println("Connect with: keyranger kinds --model-host " + server.hostPort());
        out.println("Stop with Ctrl-C.");
        out.flush();
        stopped.await();
        return 0;
    }

    private Duration retention() {
        try {
            return VersionRetention.parse(versionRetention);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
