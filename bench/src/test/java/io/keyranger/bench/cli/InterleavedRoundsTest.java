package io.keyranger.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyranger.bench.BenchRounds;
import io.keyranger.datastore.ServerType;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A bench sitting on the production model in small: a warm-up round of every strategy, run, verified and listed but
 * left out of every median and ratio, then interleaved timed rounds, each strategy's median with its min-max and runs,
 * its speed against the oracle's run of the same round, and the JSON that carries it all.
 */
class InterleavedRoundsTest {
    @TempDir
    Path dir;

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    @Test
    void aSittingWarmsUpEveryStrategyThenGivesMediansAndSpreadsOfTheTimedRoundsAlone() throws Exception {
        Path json = dir.resolve("sitting.json");
        String[] result = run("bench", "--server", "model", "--shape", "mixed", "--entities", "400", "--workers", "4",
                "--page-size", "25", "--latency-ms", "1", "--warmup", "0", "--strategies", "adaptive,oracle",
                "--repeat", "2", "--json", json.toString());
        String out = result[1];
        String err = result[2];

        assertThat(result[0]).as(err).isEqualTo("0");
        assertThat(err).contains("Warm-up round 1 of 1 (left out of the medians): adaptive, oracle",
                "Round 1 of 2: oracle, adaptive", "Round 2 of 2: adaptive, oracle");
        assertThat(out).contains("2 timed rounds, interleaved", "after 1 warm-up round",
                "left out of every median and ratio", "Warm-up round 1, left out of the medians: adaptive ",
                "x ORACLE", "adaptive vs oracle").doesNotContain("NOT VERIFIED", "not like for like", "NaN");
        assertThat(out.lines().filter(l -> l.matches("^(adaptive|oracle) +2 .* 2/2 .*")))
                .as("one row a strategy: 2 timed runs, both verified").hasSize(2);

        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.path("rounds").asInt()).isEqualTo(2);
        assertThat(root.path("warmUpRounds").asInt()).isEqualTo(1);
        JsonNode results = root.path("results");
        assertThat(results).hasSize(6).allMatch(r -> r.path("verified").asBoolean());
        assertThat(results).extracting(r -> r.path("round").asInt() + (r.path("warmUp").asBoolean() ? " warm " : " ")
                + r.path("strategy").asText()).containsExactly("1 warm adaptive", "1 warm oracle", "2 oracle",
                "2 adaptive", "3 adaptive", "3 oracle");
        // the medians and their spread are the timed runs' alone, and each ratio pairs two runs of one round
        List<Double> adaptiveWalls = new ArrayList<>();
        List<Double> vsOracle = new ArrayList<>();
        for (JsonNode r : results) {
            if (!r.path("warmUp").asBoolean() && r.path("strategy").asText().equals("adaptive")) {
                adaptiveWalls.add(r.path("wallMillis").asDouble());
                double oracle = StreamSupport.stream(results.spliterator(), false)
                        .filter(o -> o.path("round").asInt() == r.path("round").asInt()
                                && o.path("strategy").asText().equals("oracle"))
                        .findFirst().orElseThrow().path("entitiesPerSecond").asDouble();
                assertThat(r.path("vsOracle").asDouble()).isCloseTo(r.path("entitiesPerSecond").asDouble() / oracle,
                        within(1e-9));
                vsOracle.add(r.path("vsOracle").asDouble());
            }
        }
        JsonNode adaptive = root.path("medians").get(0);
        assertThat(adaptive.path("strategy").asText()).isEqualTo("adaptive");
        assertThat(adaptive.path("runs").asInt()).isEqualTo(2);
        assertThat(adaptive.path("wallMillis").path("median").asDouble())
                .isEqualTo((adaptiveWalls.get(0) + adaptiveWalls.get(1)) / 2);
        assertThat(adaptive.path("wallMillis").path("min").asDouble()).isEqualTo(Math.min(adaptiveWalls.get(0),
                adaptiveWalls.get(1)));
        assertThat(adaptive.path("vsOracle").path("median").asDouble()).isCloseTo((vsOracle.get(0) + vsOracle.get(1))
                / 2, within(1e-9));

        String[] replay = run("bench", "--from-json", json.toString());
        assertThat(replay[0]).isEqualTo("0");
        assertThat(replay[1]).isEqualTo(out.replaceAll("(?m)^Wrote .*\\R", ""));
    }

    @Test
    void theModelRunsFiveTimedRoundsByDefaultAndEveryBenchAWarmUpRoundUnlessEachRunHasAJvmOfItsOwn() {
        assertThat(rounds(ServerType.MODEL, "--server", "model")).isEqualTo(new BenchRounds(1, 5, false));
        assertThat(rounds(ServerType.EMULATOR)).isEqualTo(new BenchRounds(1, 1, false));
        assertThat(rounds(ServerType.MODEL, "--server", "model", "--fresh-jvm")).isEqualTo(new BenchRounds(0, 5, true));
        assertThat(rounds(ServerType.MODEL, "--server", "model", "--repeat", "1", "--warmup-rounds", "0"))
                .as("one run of each, as asked").isEqualTo(new BenchRounds(0, 1, false));
    }

    private static BenchRounds rounds(ServerType type, String... options) {
        BenchCommand bench = new BenchCommand();
        new CommandLine(bench).parseArgs(options);
        return bench.rounds(type);
    }

    @Test
    void noTimedRoundOrANegativeWarmUpIsOneClearLine() {
        String[] none = run("bench", "--server", "model", "--repeat", "0", "--entities", "10");
        assertThat(none[0]).isNotEqualTo("0");
        assertThat(none[2]).contains("--repeat takes 1 or more runs of each strategy, not 0.")
                .doesNotContain("\tat ");
        String[] negative = run("bench", "--warmup-rounds", "-1", "--entities", "10");
        assertThat(negative[0]).isNotEqualTo("0");
        assertThat(negative[2]).contains("--warmup-rounds takes 0 or more rounds, not -1.").doesNotContain("\tat ");
    }
}
