package io.keyranger.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyranger.bench.BenchStrategy;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.SharedEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** Drives the benchmark jar's command line in-process against the real emulator. */
class BenchCommandTest {
    @TempDir
    Path config;

    private record Result(int exitCode, String out, String err) {
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void benchRunsEveryStrategyVerifiesEachAndReprintsASavedRun() throws Exception {
        Path json = config.resolve("bench.json");
        Result result = run("bench", "--emulator-host", SharedEmulator.get().hostPort(), "--shape", "skewed",
                "--entities", "300", "--workers", "4", "--page-size", "20", "--latency-ms", "0", "--warmup", "0",
                "--offset-cap", "200", "--repeat", "1", "--warmup-rounds", "0", "--json", json.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("linear", "offset", "fixed", "adaptive-midpoint", "adaptive", "adaptive-no-undo", "oracle")
                .contains("adaptive vs linear", "adaptive vs oracle", "adaptive vs fixed", "adaptive tail share")
                .as("one run each, in one JVM: said to be unlike").contains("not like for like");
        JsonNode saved = new ObjectMapper().readTree(json.toFile());
        assertThat(saved.path("results")).hasSize(7).allMatch(r -> r.path("verified").asBoolean());
        assertThat(saved.path("results").get(1).path("extrapolated").asBoolean()).as("offset beyond its cap").isTrue();

        Result replay = run("bench", "--from-json", json.toString());
        assertThat(replay.exitCode()).isZero();
        assertThat(replay.out()).isEqualTo(result.out().replaceAll("(?m)^Wrote .*\\R", ""));

        // without the linear baseline, its ratio is left out rather than printed as NaN
        Path some = config.resolve("some.json");
        Result partial = run("bench", "--emulator-host", SharedEmulator.get().hostPort(), "--entities", "200",
                "--workers", "4", "--page-size", "20", "--latency-ms", "0", "--warmup", "0",
                "--strategies", "fixed,oracle", "--warmup-rounds", "0", "--json", some.toString());
        assertThat(partial.exitCode()).as(partial.err()).isZero();
        assertThat(partial.out()).doesNotContain("NaN").contains("fixed", "oracle");
        assertThat(new ObjectMapper().readTree(some.toFile()).path("results").get(0).has("vsLinear")).isFalse();
    }

    /**
     * Issue 48's sitting in small: each strategy twice, interleaved, the adaptive job reverted by the product's revert
     * after each run and checked entity for entity, then each strategy's medians and the ratios of the issue's targets,
     * printed and saved, and printed the same from the saved file.
     */
    @Test
    void repeatedRunsWithRevertsPrintMediansAndTheIssuesRatios() throws Exception {
        Path json = config.resolve("repeat.json");
        Result result = run("bench", "--emulator-host", SharedEmulator.get().hostPort(), "--shape", "mixed",
                "--entities", "300", "--workers", "4", "--page-size", "25", "--latency-ms", "0", "--warmup", "0",
                "--strategies", "adaptive,adaptive-no-undo", "--repeat", "2", "--warmup-rounds", "0", "--revert",
                "--json", json.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err()).contains("Round 1 of 2: adaptive, adaptive-no-undo",
                "Round 2 of 2: adaptive-no-undo, adaptive");
        assertThat(result.err().lines().filter(l -> l.startsWith("  revert of adaptive: ")))
                .as("a revert after each adaptive run, none after the runs without undo").hasSize(2)
                .allMatch(l -> l.endsWith("every entity back to its seeded value: verified true"));
        assertThat(result.err().lines().filter(l -> l.startsWith("adaptive")))
                .hasSize(4).allMatch(l -> l.contains(" calls  CPU ") && l.contains("ms/entity"));
        assertThat(result.out()).contains("Each strategy over its timed runs, median (min-max):",
                "revert of adaptive: 2 of 2 verified (every entity back to its seeded value); wall ",
                "Ratios (issue 48's targets, each from the medians of this run's timed rounds):",
                "adaptive vs adaptive-no-undo, wall time", "adaptive vs adaptive-no-undo, writes billed",
                "adaptive's revert vs its job, wall time").doesNotContain("REVERT CHECK FAILED", "NaN");
        assertThat(result.out().lines().filter(l -> l.startsWith(String.format("%-22s %4d ", "adaptive", 2))
                || l.startsWith(String.format("%-22s %4d ", "adaptive-no-undo", 2)))).as("each one's medians").hasSize(2);

        JsonNode saved = new ObjectMapper().readTree(json.toFile());
        assertThat(saved.path("results")).hasSize(4).allMatch(r -> r.path("verified").asBoolean());
        assertThat(saved.path("results")).filteredOn(r -> r.path("strategy").asText().equals("adaptive"))
                .hasSize(2).allMatch(r -> r.path("revert").path("verified").asBoolean()
                        && r.path("undoRecords").asLong() > 0 && r.path("cpuNanos").asLong() > 0);
        assertThat(saved.path("results")).filteredOn(r -> r.path("strategy").asText().equals("adaptive-no-undo"))
                .hasSize(2).allMatch(r -> r.path("revert").isMissingNode() && r.path("undoRecords").asLong() == 0
                        && r.path("writesBilled").asLong() == 300);
        JsonNode adaptive = saved.path("medians").get(0);
        assertThat(adaptive.path("strategy").asText()).isEqualTo("adaptive");
        assertThat(adaptive.path("runs").asInt()).isEqualTo(2);
        assertThat(adaptive.path("revertsVerified").asInt()).isEqualTo(2);
        assertThat(adaptive.path("wallMillis").path("median").asDouble()).isPositive();
        assertThat(saved.path("ratios")).extracting(r -> r.path("what").asText()).containsExactly(
                "adaptive vs adaptive-no-undo, wall time", "adaptive vs adaptive-no-undo, writes billed",
                "adaptive's revert vs its job, wall time");

        Result replay = run("bench", "--from-json", json.toString());
        assertThat(replay.exitCode()).isZero();
        assertThat(replay.out()).isEqualTo(result.out().replaceAll("(?m)^Wrote .*\\R", ""));
    }

    /**
     * With --fresh-jvm every run is a JVM of its own (a process other than this one, a new one each run), with the
     * same options, and its verified row comes back into this run's medians and file.
     */
    @Test
    void withFreshJvmEachRunIsANewProcessAndItsRowComesBack() throws Exception {
        Path json = config.resolve("fresh.json");
        Result result = run("bench", "--emulator-host", SharedEmulator.get().hostPort(), "--shape", "mixed",
                "--entities", "200", "--workers", "4", "--page-size", "25", "--latency-ms", "0", "--warmup", "50",
                "--strategies", "adaptive,adaptive-no-undo", "--repeat", "2", "--fresh-jvm", "--json",
                json.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        List<String> pids = result.err().lines().filter(l -> l.contains(" in a fresh JVM, pid "))
                .map(l -> l.substring(l.lastIndexOf(' ') + 1)).toList();
        assertThat(pids).as("one JVM a run").hasSize(4).doesNotHaveDuplicates()
                .doesNotContain(String.valueOf(ProcessHandle.current().pid()));
        assertThat(result.err().lines().filter(l -> l.startsWith("adaptive") && l.contains("(warm-up, not timed)")))
                .as("each JVM warms up before its timed run").hasSize(4);
        assertThat(result.out()).contains("Each strategy over its timed runs, median (min-max):",
                "adaptive vs adaptive-no-undo, wall time", "every run in a bench JVM started for it (--fresh-jvm)");
        JsonNode saved = new ObjectMapper().readTree(json.toFile());
        assertThat(saved.path("results")).hasSize(4).allMatch(r -> r.path("verified").asBoolean()
                && r.path("entitiesRun").asLong() == 200 && r.path("cpuNanos").asLong() > 0);
        assertThat(saved.path("results")).extracting(r -> r.path("strategy").asText())
                .containsExactly("adaptive", "adaptive-no-undo", "adaptive-no-undo", "adaptive");
    }

    @Test
    void aFreshJvmGetsTheSameOptionsButRunsOneStrategyOnce() {
        CommandLine cli = new CommandLine(new BenchMain());
        ParseResult parsed = cli.parseArgs("bench", "--server", "model", "--entities=500", "--revert",
                "--pipeline-jvm", "-XX:TieredStopAtLevel=1 -Xss1m", "--strategies", "adaptive,beam-keyranger-flink",
                "--repeat", "3", "--warmup-rounds", "1", "--fresh-jvm", "--json", "all.json", "--chart", "all.svg")
                .subcommand();

        List<String> args = FreshJvm.arguments(parsed, BenchStrategy.ADAPTIVE, Path.of("one.json"));

        assertThat(args).containsExactly("bench", "--server=model", "--entities=500", "--revert",
                "--pipeline-jvm=-XX:TieredStopAtLevel=1 -Xss1m", "--strategies=adaptive", "--repeat=1",
                "--warmup-rounds=0", "--json=one.json");
    }

    /**
     * On the Firestore emulator the bench plans with that server's order and limits: no 25-group limit, so a page of
     * 100 root entities is one commit, not four; and it says which emulator it ran on.
     */
    @Test
    void onTheFirestoreEmulatorTheBenchFollowsThatServersLimits() throws Exception {
        Path json = config.resolve("firestore.json");
        String[] job = {"--shape", "uniform", "--entities", "400", "--workers", "1", "--page-size", "100",
                "--latency-ms", "0", "--warmup", "0", "--warmup-rounds", "0", "--strategies", "adaptive"};
        Result firestore = run(concat(new String[] {"bench", "--emulator-host",
                SharedEmulator.get(ServerType.FIRESTORE_EMULATOR).hostPort(),
                "--json", json.toString()}, job));
        assertThat(firestore.exitCode()).as(firestore.err()).isZero();
        JsonNode saved = new ObjectMapper().readTree(json.toFile());
        assertThat(saved.path("server").asText()).isEqualTo("firestore-emulator");
        assertThat(saved.path("results").get(0).path("verified").asBoolean()).isTrue();

        Path legacyJson = config.resolve("legacy.json");
        Result legacy = run(concat(new String[] {"bench", "--emulator-host", SharedEmulator.get().hostPort(),
                "--json", legacyJson.toString()}, job));
        assertThat(legacy.exitCode()).as(legacy.err()).isZero();
        JsonNode legacySaved = new ObjectMapper().readTree(legacyJson.toFile());
        assertThat(legacySaved.path("server").asText()).isEqualTo("emulator");
        long firestoreCommits = saved.path("results").get(0).path("commits").asLong();
        long legacyCommits = legacySaved.path("results").get(0).path("commits").asLong();
        assertThat(legacyCommits).as("25 entity groups per commit on the legacy emulator").isGreaterThanOrEqualTo(16);
        assertThat(firestoreCommits).as("no group limit on the Firestore emulator: a page is a commit")
                .isLessThan(legacyCommits / 2);

        Result mismatch = run("bench", "--server", "emulator", "--emulator-host",
                SharedEmulator.get(ServerType.FIRESTORE_EMULATOR).hostPort(), "--entities", "10");
        assertThat(mismatch.exitCode()).isNotZero();
        assertThat(mismatch.err()).contains("is the Firestore emulator (--server firestore-emulator)")
                .doesNotContain("\tat ");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void noCommandOrABadShapeGetsOneClearLine() {
        Result none = run();
        assertThat(none.exitCode()).isNotZero();
        assertThat(none.err()).contains("needs a command: 'bench', 'simulate' or 'model-server'")
                .doesNotContain("\tat ");

        Result bad = run("bench", "--shape", "round", "--entities", "10");
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.err()).contains("round").doesNotContain("\tat ");

        Result badSimulation = run("simulate", "--shape", "round");
        assertThat(badSimulation.exitCode()).isEqualTo(2);
        assertThat(badSimulation.err()).contains("Unknown shape 'round'").doesNotContain("\tat ");
        Result tooMany = run("simulate", "--entities", "1e11");
        assertThat(tooMany.exitCode()).isEqualTo(2);
        assertThat(tooMany.err()).contains("3 to 12,000,000,000 entities").doesNotContain("\tat ");
    }

    @Test
    void simulatePrintsEachStrategyAndDrawsTheChart(@TempDir Path dir) throws Exception {
        Path chart = dir.resolve("scaling.svg");
        Result result = run("simulate", "--entities", "1e4,1e5", "--workers", "16", "--strategies", "fixed,adaptive,oracle",
                "--chart", chart.toString());
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("10,000 entities, 16 workers", "100,000 entities, 16 workers", "adaptive",
                "VIRTUAL WALL");
        assertThat(Files.readString(chart)).contains("<svg", "O(n/w + log n)", "stroke-dasharray");
    }
}
