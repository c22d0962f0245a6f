package io.keyranger.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Key;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SimulationTest {
    private static final Simulation.Settings SETTINGS = new Simulation.Settings(64, 100, 20, 100, 256, 0, 0, 42);

    @Test
    void keysAreInProductionKeyOrderAndTheirRanksAreTheirIndices() {
        SplittableRandom random = new SplittableRandom(7);
        for (long n : new long[] {3, 10, 1_000, 3_000_001, 1_000_000_000L}) {
            KeySpace space = KeySpace.of(KeySpace.Shape.MIXED, n);
            assertThat(space.size()).isEqualTo(n);
            for (int i = 0; i < 2_000; i++) {
                long at = i < 6 ? Math.min(n - 2, new long[] {0, 1, n / 3 - 1, n / 3, 2 * n / 3 - 1, n - 2}[i])
                        : random.nextLong(n - 1);
                at = Math.max(0, at);
                Key key = space.key(at);
                assertThat(KeyOrder.PRODUCTION.compare(key, space.key(at + 1))).as("key %d of %d", at, n).isNegative();
                assertThat(space.lowerBound(key)).isEqualTo(at);
                KeyRange after = KeyRange.all(KeyOrder.PRODUCTION).advancePast(key);
                assertThat(space.startIndex(after)).isEqualTo(at + 1);
            }
        }
    }

    @Test
    void theScatterSampleIsAtProductionsRateAndSorted() {
        KeySpace sparse = KeySpace.of(KeySpace.Shape.SPARSE_SCATTER, 10_000);
        assertThat(sparse.scatterSample(4096, new SplittableRandom(1))).hasSize(78)
                .isSortedAccordingTo(KeyOrder.PRODUCTION).doesNotHaveDuplicates();
        assertThat(KeySpace.of(KeySpace.Shape.MIXED, 1_000_000).scatterSample(4096, new SplittableRandom(1)))
                .hasSize(4096);
    }

    @Test
    void everyStrategyProcessesEverySelectedEntityOnce() {
        for (KeySpace.Shape shape : KeySpace.Shape.values()) {
            KeySpace space = KeySpace.of(shape, 20_000);
            for (SimStrategy strategy : SimStrategy.values()) {
                SimResult r = Simulation.run(space, strategy, SETTINGS);
                // the run checks its count; here what it reports must add up
                assertThat(r.entities()).isEqualTo(space.selected());
                assertThat(r.calls()).as("%s %s", shape, strategy)
                        .isGreaterThanOrEqualTo(4 * ((space.selected() + 99) / 100));
                assertThat(r.ranges()).isGreaterThanOrEqualTo(strategy == SimStrategy.LINEAR ? 1 : 2);
                assertThat(r.tailShare()).isBetween(0.0, 1.0);
            }
        }
    }

    @Test
    void linearTakesAPageCycleAPageAndTheParallelStrategiesShareTheWork() {
        KeySpace space = KeySpace.of(KeySpace.Shape.MIXED, 100_000);
        SimResult linear = Simulation.run(space, SimStrategy.LINEAR, SETTINGS);
        SimResult oracle = Simulation.run(space, SimStrategy.ORACLE, SETTINGS);
        SimResult adaptive = Simulation.run(space, SimStrategy.ADAPTIVE, SETTINGS);
        // 1,000 pages of 4 calls at the log-normal's mean (about 25.3 ms for 20 ms median, 100 ms p99)
        assertThat(linear.wallSeconds()).isBetween(1_000 * 4 * 0.0253 * 0.95, 1_000 * 4 * 0.0253 * 1.1);
        assertThat(linear.splits()).isZero();
        assertThat(oracle.wallSeconds()).isLessThan(linear.wallSeconds() / 20);
        assertThat(adaptive.wallSeconds()).isLessThan(linear.wallSeconds() / 20);
        assertThat(adaptive.splits()).isPositive();
    }

    @Test
    void theSameSeedGivesTheSameRunAndTheCpuOfASmallMachineSlowsItDown() {
        KeySpace space = KeySpace.of(KeySpace.Shape.FILTERED, 50_000);
        SimResult once = Simulation.run(space, SimStrategy.ADAPTIVE, SETTINGS);
        SimResult again = Simulation.run(space, SimStrategy.ADAPTIVE, SETTINGS);
        assertThat(again.wallNanos()).isEqualTo(once.wallNanos());
        assertThat(again.splits()).isEqualTo(once.splits());
        SimResult twoCores = Simulation.run(space, SimStrategy.ADAPTIVE,
                new Simulation.Settings(64, 100, 20, 100, 256, 2, 2_000, 42));
        assertThat(twoCores.wallNanos()).isGreaterThan(once.wallNanos());
    }
}
