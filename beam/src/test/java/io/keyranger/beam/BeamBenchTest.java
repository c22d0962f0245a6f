package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.bench.BenchResult;
import io.keyranger.bench.BenchRunner;
import io.keyranger.bench.BenchShape;
import io.keyranger.bench.BenchStrategy;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.keys.KeyOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's two Beam strategies run their pipelines on the emulator and are checked entity by entity: a job
 * with a where clause (the filtered shape), so the selected entities are incremented once and the others not at all.
 */
class BeamBenchTest {
    @Test
    void bothBeamStrategiesRunTheSameFilteredJobAndAreVerified() throws Exception {
        List<String> log = new ArrayList<>();
        BenchRunner runner = new BenchRunner(BeamEmulator.connect(BeamEmulator.freshProject("bench")),
                KeyOrder.EMULATOR, ServerLimits.EMULATOR, log::add);
        BenchRunner.Settings settings = new BenchRunner.Settings(BenchShape.FILTERED, 600, 4, 50, 0, 150, 4, 0);
        List<BenchResult> results = new ArrayList<>();
        for (BenchStrategy strategy : List.of(BenchStrategy.BEAM_DATASTOREIO, BenchStrategy.BEAM_KEYRANGER)) {
            results.add(runner.run(strategy, settings));
        }
        assertThat(results).extracting(BenchResult::strategy).containsExactly("beam-datastoreio", "beam-keyranger");
        // entities: the selected ones (a tenth); verified: every entity read back is as the where clause says
        assertThat(results).allMatch(BenchResult::verified)
                .allMatch(r -> r.entities() > 0 && r.entities() < 600 && r.wallMillis() > 0);
        assertThat(log.stream().filter(line -> line.contains("double increments")))
                .hasSize(2).allMatch(line -> line.contains(" 0 double increments"));
        assertThat(log).anyMatch(line -> line.contains("DatastoreIO: incremented n"));
    }
}
