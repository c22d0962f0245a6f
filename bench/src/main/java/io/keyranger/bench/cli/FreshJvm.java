package io.keyranger.bench.cli;

import io.keyranger.KeyRangerException;
import io.keyranger.bench.BenchJson;
import io.keyranger.bench.BenchResult;
import io.keyranger.bench.BenchStrategy;
import io.keyranger.bench.ModelProcess;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code bench --fresh-jvm}: one run of one strategy in a bench JVM started for it, with this one's JVM flags and the
 * same options, so that a local strategy's job meets a JVM with the same history as a Beam strategy's pipeline JVM
 * (new, then --warmup entities), not one that earlier runs have compiled. The run's row comes back through its
 * {@code --json}.
 */
final class FreshJvm {
    /** The options that say what this JVM runs, not how one run goes: each fresh JVM gets its own. */
    private static final Set<String> PER_RUN = Set.of("--fresh-jvm", "--strategies", "--repeat", "--warmup-rounds",
            "--json", "--chart");

    private FreshJvm() {
    }

    /** The {@code bench} arguments of a fresh JVM that runs {@code strategy} once and saves its row to {@code json}. */
    static List<String> arguments(ParseResult bench, BenchStrategy strategy, Path json) {
        List<String> args = new ArrayList<>(List.of("bench"));
        for (OptionSpec option : bench.matchedOptions()) {
            String name = option.longestName();
            if (PER_RUN.contains(name)) {
                continue;
            }
            if (option.arity().max() == 0) {
                args.add(name);
            } else {
                // NAME=VALUE, so that a value that starts with '-' (--pipeline-jvm's flags) stays a value
                bench.matchedOption(name).originalStringValues().forEach(v -> args.add(name + "=" + v));
            }
        }
        // one timed run: the rounds, warm-up ones too, are this JVM's to run
        args.addAll(List.of("--strategies=" + strategy.id(), "--repeat=1", "--warmup-rounds=0", "--json=" + json));
        return args;
    }

    /**
     * Runs {@code strategy} once in a new JVM; what it says while it runs goes to {@code err}, after a line that names
     * its process. Its row, verified or not; refused when the JVM cannot start or saves no row.
     */
    static BenchResult run(ParseResult bench, BenchStrategy strategy, PrintWriter err) throws InterruptedException {
        Path launcher = ModelProcess.javaLauncher().orElseThrow(() -> new KeyRangerException(
                "--fresh-jvm starts a JVM for each run, and this runtime has no java launcher: run without it."));
        Path json = null;
        try {
            json = Files.createTempFile("keyranger-bench-run-", ".json");
            List<String> command = new ArrayList<>(List.of(launcher.toString()));
            command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchMain.class.getName()));
            command.addAll(arguments(bench, strategy, json));
            Process process = new ProcessBuilder(command).start();
            err.println("  " + strategy.id() + " in a fresh JVM, pid " + process.pid());
            err.flush();
            // its table of one run is not this run's: kept to name a failure; its progress is passed on as it comes
            CompletableFuture<List<String>> table = CompletableFuture.supplyAsync(
                    () -> process.inputReader(StandardCharsets.UTF_8).lines().toList());
            List<String> said = new ArrayList<>();
            process.errorReader(StandardCharsets.UTF_8).lines().forEach(line -> {
                said.add(line);
                err.println(line);
                err.flush();
            });
            said.addAll(0, table.join()); // its last words, if any, are its error
            int exit = process.waitFor();
            List<BenchResult> rows = Files.size(json) == 0 ? List.of() : BenchJson.read(json).timed();
            if (rows.size() != 1) {
                throw new KeyRangerException("The fresh JVM that ran " + strategy.id() + " ended (exit " + exit
                        + ") without its result: " + (said.isEmpty() ? "it said nothing" : said.get(said.size() - 1)));
            }
            return rows.get(0);
        } catch (IOException e) {
            throw new KeyRangerException("Cannot run " + strategy.id() + " in a fresh JVM: " + e.getMessage(), e);
        } finally {
            if (json != null) {
                try {
                    Files.deleteIfExists(json);
                } catch (IOException ignored) {
                    // a temporary file left behind
                }
            }
        }
    }
}
