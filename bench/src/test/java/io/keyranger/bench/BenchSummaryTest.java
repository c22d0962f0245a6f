package io.keyranger.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyranger.AtomicFiles;
import io.keyranger.KeyRangerException;
import io.keyranger.bench.BenchSummary.Spread;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sitting's statistics: medians and min-max of the timed runs alone, and speeds compared within a round. */
class BenchSummaryTest {
    private static final BenchRunner.Settings SETTINGS = new BenchRunner.Settings(BenchShape.MIXED, 1000, 4, 25, 20,
            0, 0, 0);

    @TempDir
    Path dir;

    /** A verified run of 1,000 entities in {@code wall} ms. */
    private static BenchRun run(int round, boolean warmUp, String strategy, long wall) {
        return new BenchRun(round, warmUp, new BenchResult(strategy, 1000, wall, 1000 * 1000.0 / wall, 10, 10, 1, 0.05,
                true, false));
    }

    @Test
    void aSpreadIsTheMedianAndTheLeastAndMostOfWhatWasMeasured() {
        assertThat(Spread.of(30, 10, 20)).isEqualTo(new Spread(20, 10, 30));
        assertThat(Spread.of(40, 10, 20, 30)).as("even: the mean of the two middle ones")
                .isEqualTo(new Spread(25, 10, 40));
        assertThat(Spread.of(7)).isEqualTo(new Spread(7, 7, 7));
        assertThat(Spread.of(Double.NaN, 5, 9)).as("a run that did not measure it is left out")
                .isEqualTo(new Spread(7, 5, 9));
        assertThat(Spread.of().known()).isFalse();
    }

    /**
     * A cold first run (the warm-up round's adaptive, 9 s) would pull adaptive's median and its ratio to the oracle
     * far down; it is left out of both, and the ratio pairs each adaptive run with the oracle's of the same round.
     */
    @Test
    void theWarmUpRoundIsLeftOutOfEveryMedianAndRatiosPairRunsOfOneRound() {
        List<BenchRun> runs = List.of(run(1, true, "adaptive", 9000), run(1, true, "oracle", 2500),
                run(2, false, "oracle", 2000), run(2, false, "adaptive", 2500),
                run(3, false, "adaptive", 2000), run(3, false, "oracle", 1000),
                run(4, false, "oracle", 2000), run(4, false, "adaptive", 2000));

        assertThat(BenchSummary.timed(runs)).hasSize(6).noneMatch(r -> r.wallMillis() == 9000);
        BenchSummary.Medians adaptive = BenchSummary.medians(BenchSummary.timed(runs)).get(0);
        assertThat(adaptive.strategy()).isEqualTo("adaptive");
        assertThat(adaptive.runs()).isEqualTo(3);
        assertThat(adaptive.wallMillis()).isEqualTo(new Spread(2000, 2000, 2500));
        // round by round: 2000/2500 = 0.8, 1000/2000 = 0.5, 2000/2000 = 1.0
        Spread vsOracle = BenchSummary.paired(runs, "adaptive", "oracle");
        assertThat(vsOracle.median()).isCloseTo(0.8, within(1e-9));
        assertThat(vsOracle.min()).isCloseTo(0.5, within(1e-9));
        assertThat(vsOracle.max()).isCloseTo(1.0, within(1e-9));
        assertThat(BenchSummary.paired(runs, "adaptive", "linear").known()).as("linear did not run").isFalse();

        List<BenchResult> bars = BenchSummary.medianRows(BenchSummary.timed(runs));
        assertThat(bars).as("in the order asked for, the warm-up round's").extracting(BenchResult::strategy)
                .containsExactly("adaptive", "oracle");
        assertThat(bars.get(0).wallMillis()).isEqualTo(2000);
        assertThat(bars.get(0).entitiesPerSecond()).isCloseTo(500, within(1e-9));
    }

    @Test
    void theJsonCarriesEveryRunWithItsRoundAndEachStrategysSpreadAndReadsBackTheSame() throws Exception {
        List<BenchRun> runs = List.of(run(1, true, "adaptive", 9000), run(1, true, "oracle", 2500),
                run(2, false, "oracle", 2000), run(2, false, "adaptive", 2500),
                run(3, false, "adaptive", 2000), run(3, false, "oracle", 1000));
        BenchRounds rounds = new BenchRounds(1, 2, false);
        Path file = dir.resolve("sitting.json");
        AtomicFiles.writeJson(file, BenchJson.write("model", SETTINGS, rounds, runs));

        JsonNode root = new ObjectMapper().readTree(file.toFile());
        assertThat(root.path("rounds").asInt()).isEqualTo(2);
        assertThat(root.path("warmUpRounds").asInt()).isEqualTo(1);
        assertThat(root.path("spread").asText()).isEqualTo("min-max");
        assertThat(root.path("results")).hasSize(6);
        JsonNode warm = root.path("results").get(0);
        assertThat(warm.path("round").asInt()).isEqualTo(1);
        assertThat(warm.path("warmUp").asBoolean()).isTrue();
        assertThat(warm.path("vsOracle").asDouble()).as("against the oracle of its own round").isCloseTo(2500 / 9000.0,
                within(1e-9));
        JsonNode adaptive = root.path("medians").get(0);
        assertThat(adaptive.path("strategy").asText()).isEqualTo("adaptive");
        assertThat(adaptive.path("runs").asInt()).isEqualTo(2);
        assertThat(adaptive.path("wallMillis").path("median").asDouble()).isEqualTo(2250);
        assertThat(adaptive.path("wallMillis").path("max").asDouble()).isEqualTo(2500);
        assertThat(adaptive.path("vsOracle").path("min").asDouble()).isCloseTo(0.5, within(1e-9));
        assertThat(adaptive.path("vsOracle").path("max").asDouble()).isCloseTo(0.8, within(1e-9));

        BenchJson.Run back = BenchJson.read(file);
        assertThat(back.rounds()).isEqualTo(rounds);
        assertThat(back.runs()).isEqualTo(runs);
    }

    /** A file saved before rounds were: a strategy's k-th row is round k; --warmup-rounds can take the first out. */
    @Test
    void aFileSavedBeforeRoundsReadsAsTimedRoundsInTheOrderTheyRan() throws Exception {
        Path file = dir.resolve("old.json");
        List<String> rows = new ArrayList<>();
        for (long wall : new long[] {9000, 2500, 2000, 2000, 2000, 1000}) {
            rows.add("{\"strategy\":\"" + (rows.size() % 2 == 0 ? "adaptive" : "oracle") + "\",\"wallMillis\":" + wall
                    + ",\"entitiesPerSecond\":" + 1000 * 1000.0 / wall + ",\"verified\":true,\"entitiesRun\":1000}");
        }
        Files.writeString(file, "{\"server\":\"model\",\"shape\":\"mixed\",\"entities\":1000,\"results\":["
                + String.join(",", rows) + "]}");

        BenchJson.Run old = BenchJson.read(file);
        assertThat(old.rounds()).isEqualTo(new BenchRounds(0, 3, false));
        assertThat(old.runs()).extracting(BenchRun::round).containsExactly(1, 1, 2, 2, 3, 3);
        assertThat(old.timed()).hasSize(6);

        BenchJson.Run relabelled = old.withWarmUpRounds(1);
        assertThat(relabelled.rounds()).isEqualTo(new BenchRounds(1, 2, false));
        assertThat(relabelled.timed()).hasSize(4).noneMatch(r -> r.wallMillis() == 9000);
        assertThat(BenchSummary.paired(relabelled.runs(), "adaptive", "oracle").median()).isCloseTo(0.75,
                within(1e-9));
        assertThatThrownBy(() -> old.withWarmUpRounds(3)).isInstanceOf(KeyRangerException.class)
                .hasMessage("--warmup-rounds 3 leaves no timed round: the file holds 3 rounds.");
    }
}
