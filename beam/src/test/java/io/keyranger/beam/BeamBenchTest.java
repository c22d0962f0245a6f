package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Query;
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

    @Test
    void aWarmedUpPipelineRunsItsWarmUpInItsJvmFirstAndReportsTheTimedRunAlone() throws Exception {
        List<String> log = new ArrayList<>();
        Datastore datastore = BeamEmulator.connect(BeamEmulator.freshProject("benchwarm"));
        BenchRunner runner = new BenchRunner(datastore, KeyOrder.EMULATOR, ServerLimits.EMULATOR, log::add);
        BenchRunner.Settings settings = new BenchRunner.Settings(BenchShape.UNIFORM, 400, 4, 50, 0, 150, 4, 150);
        BenchResult result = runner.run(BenchStrategy.BEAM_KEYRANGER, settings);

        assertThat(result.verified()).isTrue();
        assertThat(result.entities()).isEqualTo(400);
        // the warm-up ran for real, as a job of its own over a kind of its own: each of its entities incremented once
        List<String> kinds = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("__kind__").build())
                .forEachRemaining(k -> kinds.add(k.getName()));
        String warm = kinds.stream().filter(k -> k.startsWith("Bench_beam_keyranger_150_")).findFirst().orElseThrow();
        List<Long> counts = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind(warm).build())
                .forEachRemaining(e -> counts.add(e.getLong("n")));
        assertThat(counts).hasSize(150).containsOnly(1L);
        // what the bench reports is the timed run's: its one summary and where-the-time-went line, its own CPU
        assertThat(log.stream().filter(l -> l.startsWith("  beam-keyranger: Job "))).singleElement()
                .asString().contains("Job Bench_beam_keyranger_400_");
        assertThat(log).noneMatch(l -> l.contains(warm + ":"));
        assertThat(result.costs().cpuNanos()).isPositive();
    }
}
