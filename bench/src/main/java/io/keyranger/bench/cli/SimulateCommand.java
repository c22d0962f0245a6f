package io.keyranger.bench.cli;

import io.keyranger.AtomicFiles;
import io.keyranger.KeyRangerException;
import io.keyranger.bench.ScalingChart;
import io.keyranger.sim.KeySpace;
import io.keyranger.sim.SimResult;
import io.keyranger.sim.SimStrategy;
import io.keyranger.sim.Simulation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The bench's strategies at any scale, on a virtual clock: the executor's planner, split policy, split points and range
 * tracker over a synthetic kind, each call a draw of the production model's latency. No server, so a billion entities
 * on a thousand workers runs on a laptop.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = "Simulate linear, fixed, adaptive and oracle at internet scale (virtual clock, no server).")
public final class SimulateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--shape", defaultValue = "mixed", paramLabel = "SHAPE",
            description = "mixed, filtered (a job over the lowest tenth of the kind) or sparse-scatter (mixed; run it at "
                    + "about 128 entities per worker) (default: ${DEFAULT-VALUE}).")
    String shape;

    @Option(names = "--entities", defaultValue = "10000,100000,1000000", split = ",", paramLabel = "N",
            description = "Entity counts, e.g. 1e4,1e6,1e9 (default: ${DEFAULT-VALUE}).")
    List<String> entities;

    @Option(names = "--workers", defaultValue = "64", split = ",", paramLabel = "N",
            description = "Worker counts (default: ${DEFAULT-VALUE}).")
    List<Integer> workers;

    @Option(names = "--strategies", defaultValue = "linear,fixed,adaptive,oracle", split = ",", paramLabel = "S",
            description = "Strategies (default: ${DEFAULT-VALUE}).")
    List<String> strategies;

    @Option(names = "--page-size", defaultValue = "100", paramLabel = "N", description = "Keys per page.")
    int pageSize;

    @Option(names = "--latency-ms", defaultValue = "20", paramLabel = "MS", description = "Median latency per call.")
    double latencyMs;

    @Option(names = "--p99-ms", paramLabel = "MS", description = "99th percentile latency (default: 5 x --latency-ms).")
    Double p99Ms;

    @Option(names = "--capacity", defaultValue = "0", paramLabel = "N",
            description = "Calls the server serves at once, 0 for no limit (the model serves 256) "
                    + "(default: ${DEFAULT-VALUE}).")
    int capacity;

    @Option(names = "--cores", defaultValue = "0", paramLabel = "N",
            description = "Processors the client and the server share, 0 for no limit (the bench's machine: 2) "
                    + "(default: ${DEFAULT-VALUE}).")
    int cores;

    @Option(names = "--cpu-us-per-call", defaultValue = "0", paramLabel = "US",
            description = "CPU per call on those processors, client and server together (the bench measures it) "
                    + "(default: ${DEFAULT-VALUE}).")
    double cpuMicrosPerCall;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "N", description = "Seeds latency and sample draws.")
    long seed;

    @Option(names = "--chart", paramLabel = "FILE.svg",
            description = "Write wall time against entities (log-log) for the first worker count, with the "
                    + "O(n/workers + log n) curve.")
    Path chart;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<SimStrategy> chosen;
        KeySpace.Shape kindShape;
        List<Long> sizes = new ArrayList<>();
        try {
            chosen = strategies.stream().map(SimStrategy::of).toList();
            kindShape = KeySpace.Shape.of(shape);
            for (String n : entities) {
                sizes.add(KeySpace.of(kindShape, parseCount(n)).size());
            }
        } catch (KeyRangerException | NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        double p99 = p99Ms != null ? p99Ms : 5 * latencyMs;
        out.printf("simulated: %s shape, page %d, latency %.0f ms median, %.0f ms p99, capacity %s, %s%n", kindShape.id(),
                pageSize, latencyMs, p99, capacity == 0 ? "unbounded" : capacity, cores == 0 ? "no CPU limit"
                        : String.format(Locale.ROOT, "%d cores at %.0f us a call", cores, cpuMicrosPerCall));
        Map<String, List<double[]>> lines = new LinkedHashMap<>();
        for (int w : workers) {
            for (long n : sizes) {
                KeySpace space = KeySpace.of(kindShape, n);
                List<SimResult> results = new ArrayList<>();
                for (SimStrategy s : chosen) {
                    Simulation.Settings settings = new Simulation.Settings(w, pageSize, latencyMs, p99, capacity, cores,
                            cpuMicrosPerCall, seed);
                    SimResult r = Simulation.run(space, s, settings);
                    results.add(r);
                    if (w == workers.get(0)) {
                        lines.computeIfAbsent(r.strategy(), k -> new ArrayList<>())
                                .add(new double[] {r.entities(), r.wallSeconds(), 0});
                    }
                }
                print(out, n, w, results);
            }
        }
        if (chart != null) {
            int w = workers.get(0);
            List<double[]> reference = new ArrayList<>();
            double cycle = pageCycleSeconds(latencyMs, p99);
            for (long n : sizes) {
                reference.add(new double[] {n, cycle * ((double) n / ((long) w * pageSize) + Math.log(n) / Math.log(2))});
            }
            String title = String.format(Locale.ROOT, "keyranger-bench simulate: %s shape, %d workers, %.0f ms median "
                    + "latency", kindShape.id(), w, latencyMs);
            AtomicFiles.writeString(chart, ScalingChart.svg(title, "virtual time, no server", lines,
                    "O(n/w + log n)", reference));
            out.println("Wrote " + chart);
        }
        return 0;
    }

    /** A page's reads and one chunk's transaction at the mean of the latency's log-normal. */
    static double pageCycleSeconds(double medianMs, double p99Ms) {
        double sigma = medianMs == 0 ? 0 : Math.log(p99Ms / medianMs) / 2.326;
        return (1 + Simulation.CALLS_PER_CHUNK) * medianMs * Math.exp(sigma * sigma / 2) / 1000;
    }

    private static void print(PrintWriter out, long entities, int workers, List<SimResult> results) {
        out.printf("%n%,d entities, %d workers%n", entities, workers);
        out.printf("%-10s %14s %12s %9s %14s %10s %10s %6s %6s %9s%n", "STRATEGY", "VIRTUAL WALL", "ENTITY/s",
                "x ORACLE", "CALLS", "SPLITS", "RANGES", "DEPTH", "TAIL", "SIM s");
        double oracle = results.stream().filter(r -> r.strategy().equals("oracle")).mapToDouble(SimResult::wallSeconds)
                .findFirst().orElse(Double.NaN);
        for (SimResult r : results) {
            out.printf(Locale.ROOT, "%-10s %14s %,12.0f %9s %,14d %,10d %,10d %6d %5.1f%% %9.1f%n", r.strategy(),
                    duration(r.wallSeconds()), r.entities() / r.wallSeconds(),
                    Double.isNaN(oracle) ? "-" : String.format(Locale.ROOT, "%.2f", oracle / r.wallSeconds()),
                    r.calls(), r.splits(), r.ranges(), r.maxDepth(), r.tailShare() * 100, r.runtimeMillis() / 1000.0);
        }
        out.flush();
    }

    /** Seconds as "12.3 s", "45.6 min", "7.8 h" or "9.1 d". */
    static String duration(double seconds) {
        if (seconds < 600) {
            return String.format(Locale.ROOT, "%.2f s", seconds);
        }
        if (seconds < 36_000) {
            return String.format(Locale.ROOT, "%.1f min", seconds / 60);
        }
        return seconds < 3 * 86_400 ? String.format(Locale.ROOT, "%.1f h", seconds / 3600)
                : String.format(Locale.ROOT, "%.1f d", seconds / 86_400);
    }

    /** "1000000", "1,000,000" or "1e6". */
    static long parseCount(String text) {
        String t = text.trim().replace(",", "").replace("_", "");
        if (t.toLowerCase(Locale.ROOT).contains("e")) {
            return Math.round(Double.parseDouble(t));
        }
        return Long.parseLong(t);
    }
}
