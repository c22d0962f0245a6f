package io.keyranger.bench.cli;

import io.keyranger.bench.BenchResult;
import io.keyranger.bench.BenchRunner;
import io.keyranger.bench.BenchStrategy;
import io.keyranger.bench.ModelProcess;
import io.keyranger.bench.PipelineJvms;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.emulator.CloudSdkLocator;
import io.keyranger.emulator.EmulatorManager;
import io.keyranger.emulator.RunningEmulator;
import io.keyranger.model.ModelServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Where a bench's runs go: each to a server of its own, started for it (a fresh emulator, or a fresh model server in
 * a JVM of its own), so that nothing one run left there weighs on the next; or to the emulator the command was given.
 */
final class BenchServers {
    /** What runs against a model server: a strategy, or the backups scenario. */
    interface OnModel<T> {
        T run(Session session, Consumer<Boolean> quiet, LongSupplier calls) throws Exception;
    }

    private final String emulatorHost;
    private final int latencyMs;
    private final double p99Ms;
    private final int capacity;
    private final Duration retention;
    private final boolean revert;
    private PipelineJvms pipelineJvms;

    /**
     * @param emulatorHost the emulator every run uses, or null to start one per run
     * @param retention    the model's version window, or null for its own
     * @param revert       whether each run's job is reverted and checked after it ({@link BenchRunner#reverting})
     */
    BenchServers(String emulatorHost, int latencyMs, double p99Ms, int capacity, Duration retention, boolean revert) {
        this.emulatorHost = emulatorHost;
        this.latencyMs = latencyMs;
        this.p99Ms = p99Ms;
        this.capacity = capacity;
        this.retention = retention;
        this.revert = revert;
    }

    /** The Beam strategies' JVMs, kept while the rounds run. */
    void pipelineJvms(PipelineJvms jvms) {
        this.pipelineJvms = jvms;
    }

    /** One run of a strategy on an emulator. */
    BenchResult onEmulator(ServerType type, BenchStrategy strategy, BenchRunner.Settings settings, PrintWriter err)
            throws Exception {
        // a fresh emulator per strategy: the emulator slows down as it fills, which would favour the first ones
        RunningEmulator own = emulatorHost == null
                ? new EmulatorManager(CloudSdkLocator.fromEnvironment(null)).start(type, 0, null) : null;
        try {
            String host = own != null ? own.hostPort() : emulatorHost;
            // the key order and commit limits are the server's own: the chunker keeps to 25 entity groups only
            // on the legacy emulator
            Session session = Session.open(ConnectionSpec.emulator(host, "bench", type));
            BenchRunner runner = new BenchRunner(session.datastore(), session.order(), session.limits(), line -> {
                err.println(line);
                err.flush();
            });
            return configured(runner, session).run(strategy, settings);
        } finally {
            if (own != null) {
                own.close();
            }
        }
    }

    /** A fresh model server per strategy, as a fresh emulator per strategy: nothing left over from the last one. */
    BenchResult onModel(BenchStrategy strategy, BenchRunner.Settings settings, PrintWriter err) throws Exception {
        return onModel(err, (session, quiet, calls) -> {
            BenchRunner runner = new BenchRunner(session.datastore(), session.order(), session.limits(), line -> {
                err.println(line);
                err.flush();
            }).serverSideLatency(quiet, calls);
            return configured(runner, session).run(strategy, settings);
        });
    }

    /**
     * Runs {@code body} against a new model server. It runs in a JVM of its own, so that the heap figures are the
     * client's alone; a runtime without a java launcher (the installed app's) runs it in this JVM and says that its
     * heap figures include the model.
     */
    <T> T onModel(PrintWriter err, OnModel<T> body) throws Exception {
        Optional<Path> launcher = ModelProcess.javaLauncher();
        if (launcher.isEmpty()) {
            err.println("No java launcher in this runtime: the model runs in this JVM, and the heap figures include it.");
            ModelServer.Options options = ModelServer.Options.DEFAULT.withLatency(latencyMs, p99Ms)
                    .withCapacity(capacity);
            try (ModelServer model = ModelServer.start(0, retention == null ? options
                    : options.withVersionRetention(retention))) {
                T result = body.run(Session.open(ConnectionSpec.model(model.hostPort(), "bench")), model::quiet,
                        model::calls);
                err.printf("  model: %,d calls, at most %d at once%n", model.calls(), model.maxInFlight());
                err.flush();
                return result;
            }
        }
        try (ModelProcess model = startModel(launcher.get())) {
            T result = body.run(Session.open(ConnectionSpec.model(model.hostPort(), "bench")), model::quiet,
                    model::calls);
            err.println("  model: " + model.stats());
            err.flush();
            return result;
        }
    }

    /** The model server of these settings in a JVM of its own ({@code java} from {@code launcher}). */
    ModelProcess startModel(Path launcher) {
        return ModelProcess.start(launcher, latencyMs, p99Ms, capacity, retention);
    }

    /** The runner with what the options add: a revert after each run; the command's pipeline JVMs. */
    private BenchRunner configured(BenchRunner runner, Session session) {
        runner.pipelineJvms(pipelineJvms);
        runner.servesAtOnce(session.spec().server().servesAtOnce());
        return revert ? runner.reverting(session) : runner;
    }
}
