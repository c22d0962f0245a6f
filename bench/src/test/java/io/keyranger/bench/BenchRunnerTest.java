package io.keyranger.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.KeyFactory;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.keys.KeyOrder;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A small run of every benchmark strategy: each must finish with every entity incremented exactly once. */
class BenchRunnerTest {
    @Test
    void everyStrategyRunsTheSameJobAndIsVerified() throws Exception {
        List<String> log = new ArrayList<>();
        BenchRunner runner = new BenchRunner(SharedEmulator.connect(SharedEmulator.freshProject("bench")),
                KeyOrder.EMULATOR, ServerLimits.EMULATOR, log::add);
        BenchRunner.Settings settings = new BenchRunner.Settings(BenchShape.SKEWED, 300, 4, 25, 0, 150, 4, 60);
        List<BenchResult> results = new ArrayList<>();
        for (BenchStrategy strategy : BenchStrategy.values()) {
            if (!strategy.beam()) { // the Beam strategies are run by the beam module's BeamBenchTest
                results.add(runner.run(strategy, settings));
            }
        }
        assertThat(results).extracting(BenchResult::strategy).containsExactly("linear", "offset", "fixed",
                "adaptive-midpoint", "adaptive", "adaptive-no-undo", "oracle");
        assertThat(results).allMatch(BenchResult::verified);
        assertThat(results).filteredOn(r -> r.strategy().equals("offset")).singleElement()
                .satisfies(r -> assertThat(r.extrapolated()).isTrue());
        assertThat(results).filteredOn(r -> r.strategy().equals("adaptive")).singleElement()
                .satisfies(r -> assertThat(r.maxDepth()).isPositive());
        assertThat(results).filteredOn(r -> r.strategy().equals("linear")).singleElement()
                .satisfies(r -> assertThat(r.maxDepth()).isZero());
        assertThat(results).allMatch(r -> r.reads() > 0 && r.commits() > 0);
        // offset runs twice (two capped sizes); each timed run follows an untimed warm-up
        assertThat(log).hasSize(16);
        assertThat(log).filteredOn(line -> line.contains("warm-up")).hasSize(8);
        assertThat(log).filteredOn(line -> line.startsWith("adaptive-no-undo") && !line.contains("warm-up"))
                .singleElement().asString().contains("300 writes (0 undo records)");
    }

    @Test
    void shapesHaveTheKeysTheyPromise() {
        var factory = new KeyFactory("p").setKind("K");
        var mixed = BenchShape.MIXED.entities(factory, 300, 1);
        assertThat(mixed).hasSize(300);
        assertThat(mixed.stream().filter(e -> e.getKey().hasName()).count()).isEqualTo(100);
        assertThat(mixed.stream().filter(e -> e.getKey().hasId() && e.getKey().getId() <= 100).count()).isEqualTo(100);
        assertThatThrownBy(() -> BenchStrategy.of("magic")).isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("Unknown strategy 'magic'");
        assertThat(BenchShape.of("Skewed")).isEqualTo(BenchShape.SKEWED);
        assertThatThrownBy(() -> BenchShape.of("weird")).isInstanceOf(KeyRangerException.class)
                .hasMessage("Unknown shape 'weird'; known: uniform, mixed, skewed, filtered, growing, sparse-scatter.");
        assertThat(BenchShape.of("sparse-scatter")).isEqualTo(BenchShape.SPARSE_SCATTER);
        var filtered = BenchShape.FILTERED.entities(factory, 3000, 1);
        var hot = filtered.stream().filter(BenchShape.FILTERED::selects).toList();
        assertThat(hot).as("a tenth matches").hasSize(300)
                .allMatch(e -> e.getKey().hasId() && e.getKey().getId() <= 300);
        var newcomers = BenchShape.GROWING.newcomers(factory, 3000);
        assertThat(newcomers).hasSize(750).allMatch(e -> Newcomers.isNewcomer(e.getKey()))
                .extracting(e -> e.getKey().getName()).isSorted();
        assertThat(BenchShape.MIXED.newcomers(factory, 3000)).isEmpty();
    }
}
