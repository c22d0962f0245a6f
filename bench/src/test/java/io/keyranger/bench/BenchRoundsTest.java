package io.keyranger.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.keyranger.KeyRangerException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rounds of a sitting: warm-up rounds first, then timed ones, each rotating the order by one. */
class BenchRoundsTest {
    @Test
    void eachRoundRotatesTheOrderSoThatEveryStrategyTakesEveryPlace() {
        BenchRounds rounds = new BenchRounds(1, 3, false);
        List<String> strategies = List.of("fixed", "adaptive", "oracle");

        assertThat(rounds.total()).isEqualTo(4);
        assertThat(rounds.order(strategies, 1)).containsExactly("fixed", "adaptive", "oracle");
        assertThat(rounds.order(strategies, 2)).containsExactly("adaptive", "oracle", "fixed");
        assertThat(rounds.order(strategies, 3)).containsExactly("oracle", "fixed", "adaptive");
        assertThat(rounds.order(strategies, 4)).containsExactly("fixed", "adaptive", "oracle");
        // over the three timed rounds each strategy ran first, second and last once
        List<String> firsts = new ArrayList<>();
        List<String> lasts = new ArrayList<>();
        for (int round = 2; round <= 4; round++) {
            firsts.add(rounds.order(strategies, round).get(0));
            lasts.add(rounds.order(strategies, round).get(2));
        }
        assertThat(firsts).containsExactlyInAnyOrderElementsOf(strategies);
        assertThat(lasts).containsExactlyInAnyOrderElementsOf(strategies);
        assertThat(rounds.order(List.of(), 3)).isEmpty();
    }

    @Test
    void warmUpRoundsComeFirstAndSaySo() {
        BenchRounds rounds = new BenchRounds(1, 5, false);

        assertThat(rounds.isWarmUp(1)).isTrue();
        assertThat(rounds.isWarmUp(2)).isFalse();
        assertThat(rounds.label(1)).isEqualTo("Warm-up round 1 of 1 (left out of the medians)");
        assertThat(rounds.label(2)).isEqualTo("Round 1 of 5");
        assertThat(rounds.label(6)).isEqualTo("Round 5 of 5");
        assertThat(rounds.describe(3)).contains("5 timed rounds, interleaved", "after 1 warm-up round",
                "left out of every median and ratio");
    }

    @Test
    void onlyASharedJvmWithoutAWarmUpRoundComparesFirstRunsWithWarmOnes() {
        assertThat(new BenchRounds(0, 5, false).firstRunsCompared(2)).isTrue();
        assertThat(new BenchRounds(0, 5, false).describe(2)).contains("not like for like");
        assertThat(new BenchRounds(0, 5, false).firstRunsCompared(1)).as("nothing to compare").isFalse();
        assertThat(new BenchRounds(1, 5, false).firstRunsCompared(2)).isFalse();
        assertThat(new BenchRounds(0, 5, true).firstRunsCompared(2)).as("every run a first run").isFalse();
        assertThat(new BenchRounds(0, 5, true).describe(2)).contains("--fresh-jvm").doesNotContain("like for like");
    }

    @Test
    void noTimedRoundOrFewerThanNoWarmUpRoundsIsRefusedInOneLine() {
        assertThatThrownBy(() -> new BenchRounds(1, 0, false)).isInstanceOf(KeyRangerException.class)
                .hasMessage("--repeat takes 1 or more runs of each strategy, not 0.");
        assertThatThrownBy(() -> new BenchRounds(-1, 5, false)).isInstanceOf(KeyRangerException.class)
                .hasMessage("--warmup-rounds takes 0 or more rounds, not -1.");
    }
}
