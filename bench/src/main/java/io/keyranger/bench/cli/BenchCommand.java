package io.keyranger.bench.cli;

import io.keyranger.KeyRangerException;
import io.keyranger.bench.BackupsBench;
import io.keyranger.bench.BenchChart;
import io.keyranger.bench.BenchJson;
import io.keyranger.bench.ScalingChart;
import io.keyranger.bench.ModelProcess;
import io.keyranger.bench.PipelineJvms;
import io.keyranger.AtomicFiles;
import io.keyranger.bench.BenchResult;
import io.keyranger.bench.BenchRounds;
import io.keyranger.bench.BenchRun;
import io.keyranger.bench.BenchRunner;
import io.keyranger.bench.BenchShape;
import io.keyranger.bench.BenchStrategy;
import io.keyranger.bench.BenchSummary;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.ServerType;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Compares KeyRanger's executor with what a user would otherwise run, side by side in one run. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmark adaptive splitting against linear, offset, fixed, midpoint and oracle strategies.")
public final class BenchCommand implements Callable<Integer> {
    /** Timed rounds on the model when --repeat is not given: enough for a median and a spread that say something. */
    static final int MODEL_ROUNDS = 5;

    @Spec
    CommandSpec spec;

    @Option(names = "--emulator-host", paramLabel = "HOST:PORT",
            description = "Use this emulator, legacy or Firestore, whichever answers there (default: start one).")
    String emulatorHost;

    @Option(names = "--server", paramLabel = "SERVER",
            description = "emulator (the Cloud SDK's legacy Datastore emulator; one request at a time, UTF-16 key "
                    + "order, 25 entity groups per transaction), firestore-emulator (the Firestore emulator in "
                    + "Datastore mode: UTF-8 key order, no entity-group limit, no __scatter__) or model (KeyRanger's "
                    + "production model: concurrent, UTF-8 key order, latency drawn on the server) (default: "
                    + "emulator, or with --emulator-host the emulator found there).")
    String server;

    @Option(names = "--p99-ms", paramLabel = "MS",
            description = "With --server model: the 99th percentile latency per call (default: 5 x --latency-ms).")
    Double p99Ms;

    @Option(names = "--capacity", defaultValue = "256", paramLabel = "N",
            description = "With --server model: calls it serves at once (default: ${DEFAULT-VALUE}).")
    int capacity;

    @Option(names = "--version-retention", paramLabel = "TIME",
            description = "With --server model: how far back the model keeps versions (reads of the past), from 1s to "
                    + "7d in s, m, h or d (default: the model's own, 1h as production keeps).")
    String versionRetention;

    @Option(names = "--shape", defaultValue = "mixed", paramLabel = "SHAPE",
            description = "uniform, mixed, skewed, filtered (a job over a tenth of the entities, clustered), growing "
                    + "(a writer adds entities in one key region while the job runs) or sparse-scatter (mixed; run it "
                    + "at about 128 entities per worker) (default: ${DEFAULT-VALUE}).")
    String shape;

    @Option(names = "--entities", defaultValue = "50000", paramLabel = "N", description = "Entities per strategy.")
    int entities;

    @Option(names = "--workers", defaultValue = "32", paramLabel = "N", description = "Concurrency cap.")
    int workers;

    @Option(names = "--page-size", defaultValue = "100", paramLabel = "N", description = "Keys per page.")
    int pageSize;

    @Option(names = "--shards", defaultValue = "0", paramLabel = "N",
            description = "Planned ranges for adaptive (default: one per worker).")
    int shards;

    @Option(names = "--warmup", defaultValue = "2000", paramLabel = "N",
            description = "Entities of an untimed run before each timed one, 0 for none (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--pipeline-jvm", paramLabel = "FLAGS",
            description = "JVM flags of a Beam strategy's pipeline JVM, space-separated (default: none, as a user "
                    + "starts it), e.g. \"-XX:TieredStopAtLevel=1\" as the README suggests for a one-job JVM.")
    String pipelineJvm;

    @Option(names = "--latency-ms", defaultValue = "20", paramLabel = "MS", description = "Simulated latency per call.")
    int latencyMs;

    @Option(names = "--offset-cap", defaultValue = "4000", paramLabel = "N",
            description = "Most entities the offset baseline really runs; beyond, it is extrapolated.")
    int offsetCap;

    @Option(names = "--linear-cap", defaultValue = "0", paramLabel = "N",
            description = "Most entities the linear baseline really runs; beyond, its time is scaled up in "
                    + "proportion (0: no cap).")
    int linearCap;

    @Option(names = "--strategies", paramLabel = "LIST", split = ",",
            description = "Which to run (default: all but the Beam ones): linear, offset, fixed, adaptive-midpoint, "
                    + "adaptive, adaptive-no-undo, oracle, beam-datastoreio, beam-keyranger (these two need "
                    + "beam/target/keyranger-beam.jar).")
    List<String> strategies;

    @Option(names = "--scenario", defaultValue = "strategies", paramLabel = "SCENARIO",
            description = "strategies (the increment with each of --strategies, side by side) or backups (with "
                    + "--server model: on one kind, an increment, a managed export read live and one read as of its "
                    + "start, a JSON-lines export, then a delete and a copy back three times: a restore from the "
                    + "export, an import of the JSON lines and restore --as-of --until; each timed and checked, in "
                    + "--repeat interleaved rounds) "
                    + "(default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--copy", description = "With --scenario backups: also copy the kind back from a second model "
            + "server (restore --from-project), as a step of each round.")
    boolean copy;

    @Option(names = "--repeat", paramLabel = "N",
            description = "Timed rounds, interleaved: each round runs every strategy once, on fresh data, in an order "
                    + "rotated by one from the round before; the table gives each strategy's median over them with "
                    + "their min-max (default: " + MODEL_ROUNDS + " with --server model; 1 on an emulator, where a "
                    + "round of the default 50,000 entities takes about half an hour). --repeat 1 --warmup-rounds 0 "
                    + "runs each strategy once.")
    Integer repeat;

    @Option(names = "--warmup-rounds", paramLabel = "N",
            description = "Rounds of every strategy before the timed ones, at full size, verified and listed but left "
                    + "out of every median and ratio, so that no strategy's first run in this JVM (or in its pipeline "
                    + "JVM) is compared with another's warm one (default: 1; 0 with --fresh-jvm, where every run is "
                    + "the first in a JVM of its own). With --from-json: take the file's first N rounds as warm-up "
                    + "rounds (for a file saved before they existed).")
    Integer warmupRounds;

    @Option(names = "--fresh-jvm",
            description = "Run each run of each strategy in a bench JVM started for it (same JVM flags, same options; a "
                    + "Beam strategy's pipeline JVM too), so that every run meets a new JVM after the same --warmup. "
                    + "Without it, the local strategies share this JVM and each Beam strategy keeps one pipeline JVM "
                    + "for all its rounds: a strategy's later runs meet a JVM that its earlier ones have compiled.")
    boolean freshJvm;

    @Option(names = "--revert",
            description = "After each run of a strategy that keeps undo, revert its job with the product's own revert "
                    + "(same workers, shards and page size), time it and check every entity is back to its seeded "
                    + "value; a revert not verified makes the command fail.")
    boolean revert;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write {\"results\": [...]} as JSON.")
    Path json;

    @Option(names = "--chart", paramLabel = "FILE.svg", description = "Also draw entities per second as an SVG chart.")
    Path chart;

    @Option(names = "--from-json", paramLabel = "FILE", split = ",",
            description = "Run nothing: print the tables (and --chart) of runs saved with --json.")
    List<Path> fromJson;

    @Option(names = "--scaling-chart", paramLabel = "FILE.svg",
            description = "With --from-json of one shape at several sizes: draw wall time against entities.")
    Path scalingChart;

    @Override
    public Integer call() throws Exception {
        BenchShape benchShape = BenchShape.of(shape);
        if (fromJson != null) {
            return replay(spec.commandLine().getOut());
        }
        List<BenchStrategy> chosen = strategies == null ? Arrays.stream(BenchStrategy.values())
                .filter(s -> !s.beam()).toList() : strategies.stream().map(BenchStrategy::of).toList();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        BenchRunner.Settings settings = new BenchRunner.Settings(benchShape, entities, workers, pageSize, latencyMs,
                offsetCap, shards, warmup, linearCap);
        List<BenchRun> runs = new ArrayList<>();
        ServerType type = serverType();
        BenchServers servers = servers(type); // a bad --version-retention is refused before anything runs
        if (!scenario.equals("strategies") && !scenario.equals("backups")) {
            throw new KeyRangerException("Unknown --scenario '" + scenario + "': use strategies or "
                    + "backups.");
        }
        if (scenario.equals("backups")) {
            return backups(servers, settings, out, err);
        }
        BenchRounds rounds = rounds(type);
        if (revert && benchShape == BenchShape.GROWING) {
            throw new KeyRangerException("--revert checks that every entity is back to its seeded value: use a shape "
                    + "other than growing, whose writer adds entities while the job runs.");
        }
        // a Beam strategy's JVM lives as long as this command's, as the local strategies' JVM does (this one)
        try (PipelineJvms jvms = new PipelineJvms(pipelineJvm == null || pipelineJvm.isBlank() ? List.of()
                : List.of(pipelineJvm.trim().split("\\s+")))) {
            servers.pipelineJvms(jvms);
            for (int round = 1; round <= rounds.total(); round++) {
                List<BenchStrategy> order = rounds.order(chosen, round);
                if (rounds.total() > 1) {
                    err.println(rounds.label(round) + ": " + String.join(", ",
                            order.stream().map(BenchStrategy::id).toList()));
                    err.flush();
                }
                for (BenchStrategy strategy : order) {
                    runs.add(new BenchRun(round, rounds.isWarmUp(round), freshJvm
                            ? FreshJvm.run(spec.commandLine().getParseResult(), strategy, err)
                            : type == ServerType.MODEL ? servers.onModel(strategy, settings, err)
                            : servers.onEmulator(type, strategy, settings, err)));
                }
            }
        }
        return report(out, settings, rounds, runs);
    }

    /**
     * The sitting's rounds: --repeat timed rounds (by default {@value #MODEL_ROUNDS} on the model, 1 on an emulator)
     * after --warmup-rounds (by default 1, none with --fresh-jvm).
     */
    BenchRounds rounds(ServerType type) {
        return new BenchRounds(warmupRounds != null ? warmupRounds : freshJvm ? 0 : 1,
                repeat != null ? repeat : type == ServerType.MODEL ? MODEL_ROUNDS : 1, freshJvm);
    }

    /**
     * The server named by --server; with --emulator-host, the emulator found there, which must be the one named if
     * one is.
     */
    private ServerType serverType() {
        ServerType named = server == null ? null : switch (server) {
            case "emulator" -> ServerType.EMULATOR;
            case "firestore-emulator" -> ServerType.FIRESTORE_EMULATOR;
            case "model" -> ServerType.MODEL;
            default -> throw new KeyRangerException("Unknown --server '" + server
                    + "': use emulator, firestore-emulator or model.");
        };
        if (emulatorHost == null) {
            ServerType type = named == null ? ServerType.EMULATOR : named;
            server = name(type);
            return type;
        }
        if (named == ServerType.MODEL) {
            throw new KeyRangerException("--emulator-host goes with --server emulator or "
                    + "firestore-emulator only.");
        }
        ServerType found = DatastoreConnector.detectEmulator(emulatorHost, "bench");
        if (named != null && named != found) {
            throw new KeyRangerException("--server " + server + " was named, but the emulator at "
                    + emulatorHost + " is the " + (found == ServerType.FIRESTORE_EMULATOR
                    ? "Firestore emulator (--server firestore-emulator)" : "legacy one (--server emulator)") + ".");
        }
        server = name(found);
        return found;
    }

    private static String name(ServerType type) {
        return switch (type) {
            case EMULATOR -> "emulator";
            case FIRESTORE_EMULATOR -> "firestore-emulator";
            default -> "model";
        };
    }

    /** Prints and saves the sitting; exit 0 only when every run, warm-up rounds' too, was verified. */
    private int report(PrintWriter out, BenchRunner.Settings settings, BenchRounds rounds, List<BenchRun> runs) {
        BenchTable.print(out, server, settings, rounds, runs);
        writeChart(out, settings, BenchSummary.timed(runs));
        if (json != null) {
            AtomicFiles.writeJson(json, BenchJson.write(server, settings, rounds, runs));
            out.println("Wrote " + json);
        }
        return runs.stream().allMatch(r -> r.result().passed()) ? 0 : 1;
    }

    /**
     * Issue 65's backup rounds: each on one kind of a new model server, after an untimed run of --warmup entities
     * there, interleaved as the strategies' rounds are ({@link #rounds}); the table pairs each step with the
     * increment (or the live export) of its own round.
     */
    private int backups(BenchServers servers, BenchRunner.Settings settings, PrintWriter out, PrintWriter err)
            throws Exception {
        if (!server.equals("model") || emulatorHost != null || strategies != null || chart != null || freshJvm) {
            throw new KeyRangerException("--scenario backups runs with --server model, and without "
                    + "--emulator-host, --strategies, --chart or --fresh-jvm.");
        }
        BenchRounds rounds = rounds(ServerType.MODEL);
        List<BenchRun> runs = new ArrayList<>();
        for (int round = 1; round <= rounds.total(); round++) {
            if (rounds.total() > 1) {
                err.println(rounds.label(round));
                err.flush();
            }
            int at = round;
            List<BackupsBench.Step> steps = servers.onModel(err, (session, quiet, calls) -> {
                if (!copy) {
                    return backupRound(new BackupsBench(session, quiet, calls, line -> {
                        err.println(line);
                        err.flush();
                    }), settings, at);
                }
                // a second model server holds the database copied from
                return servers.onModel(err, (source, sourceQuiet, sourceCalls) -> backupRound(new BackupsBench(
                        session, source, q -> {
                            quiet.accept(q);
                            sourceQuiet.accept(q);
                        }, () -> calls.getAsLong() + sourceCalls.getAsLong(), line -> {
                            err.println(line);
                            err.flush();
                        }), settings, at));
            });
            steps.forEach(step -> runs.add(new BenchRun(at, rounds.isWarmUp(at), step.result())));
        }
        BackupsTable.print(out, settings, p99(), rounds, runs);
        if (json != null) {
            AtomicFiles.writeJson(json, BenchJson.write(server, settings, rounds, runs)
                    .put(BenchJson.SCENARIO, "backups").put("p99Ms", p99()));
            out.println("Wrote " + json);
        }
        return runs.stream().allMatch(r -> r.result().verified()) ? 0 : 1;
    }

    /** One round of {@code bench}, after its warm-up. */
    private static List<BackupsBench.Step> backupRound(BackupsBench bench, BenchRunner.Settings settings, int round)
            throws InterruptedException {
        if (settings.warmup() > 0) {
            bench.run(settings, Math.min(settings.warmup(), settings.entities()), round, false);
        }
        return bench.run(settings, settings.entities(), round, true);
    }

    private double p99() {
        return p99Ms != null ? p99Ms : 5.0 * latencyMs;
    }

    /** Where this command's runs go, on a server of {@code type}. */
    private BenchServers servers(ServerType type) {
        return new BenchServers(emulatorHost, latencyMs, p99(), capacity, retention(type), revert);
    }

    /** The model server of this bench's settings in a JVM of its own ({@code java} from {@code launcher}). */
    ModelProcess startModel(Path launcher) {
        return servers(ServerType.MODEL).startModel(launcher);
    }

    /** --version-retention, or null for the model's own; refused on another server than the model. */
    Duration retention(ServerType type) {
        if (versionRetention == null) {
            return null;
        }
        if (type != ServerType.MODEL) {
            throw new KeyRangerException("--version-retention goes with --server model only: an emulator keeps what "
                    + "it keeps.");
        }
        try {
            return VersionRetention.parse(versionRetention);
        } catch (IllegalArgumentException e) {
            throw new KeyRangerException(e.getMessage(), e);
        }
    }

    private int replay(PrintWriter out) {
        List<BenchJson.Run> runs = fromJson.stream().map(BenchJson::read)
                .map(run -> warmupRounds == null ? run : run.withWarmUpRounds(warmupRounds)).toList();
        if (scalingChart != null) {
            BenchJson.Run first = runs.get(0);
            String title = String.format(Locale.ROOT, "keyranger bench on the %s: %s shape, %d workers, %d ms latency",
                    first.server(), first.settings().shape().id(),
                    first.settings().workers(), first.settings().latencyMs());
            AtomicFiles.writeString(scalingChart, ScalingChart.svg(title, runs));
            out.println("Wrote " + scalingChart);
        }
        int code = 0;
        for (BenchJson.Run run : runs) {
            if (run.scenario().equals("backups")) {
                BackupsTable.print(out, run.settings(), run.p99Ms(), run.rounds(), run.runs());
                code = Math.max(code, run.runs().stream().allMatch(r -> r.result().verified()) ? 0 : 1);
                continue;
            }
            BenchTable.print(out, run.server(), run.settings(), run.rounds(), run.runs());
            writeChart(out, run.settings(), run.timed());
            code = Math.max(code, run.runs().stream().allMatch(r -> r.result().passed()) ? 0 : 1);
        }
        return code;
    }

    private void writeChart(PrintWriter out, BenchRunner.Settings s, List<BenchResult> results) {
        if (chart == null) {
            return;
        }
        String title = String.format(Locale.ROOT, "keyranger bench: %s shape, %,d entities, %d workers, %d ms latency",
                s.shape().id(), s.entities(), s.workers(), s.latencyMs());
        AtomicFiles.writeString(chart, BenchChart.svg(title, BenchSummary.medianRows(results)));
        out.println("Wrote " + chart);
    }
}
