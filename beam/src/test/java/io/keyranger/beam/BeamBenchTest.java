package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Query;
import io.keyranger.bench.BenchResult;
import io.keyranger.bench.BenchRunner;
import io.keyranger.bench.BenchShape;
import io.keyranger.bench.BenchStrategy;
import io.keyranger.bench.PipelineJvms;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.keys.KeyOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    @Test
    void aStrategysRunsShareOnePipelineJvmWhileTheBenchKeepsItAndAJvmThatDiedIsReplaced() throws Exception {
        List<String> log = new ArrayList<>();
        Datastore datastore = BeamEmulator.connect(BeamEmulator.freshProject("benchkept"));
        BenchRunner.Settings settings = new BenchRunner.Settings(BenchShape.UNIFORM, 300, 4, 50, 0, 150, 4, 100);
        long kept;
        try (PipelineJvms jvms = new PipelineJvms(List.of())) {
            BenchRunner runner = new BenchRunner(datastore, KeyOrder.EMULATOR, ServerLimits.EMULATOR, log::add)
                    .pipelineJvms(jvms);
            BenchResult first = runner.run(BenchStrategy.BEAM_KEYRANGER, settings);
            List<Long> afterFirst = jvms.pids();
            BenchResult second = runner.run(BenchStrategy.BEAM_KEYRANGER, settings);

            assertThat(afterFirst).hasSize(1);
            assertThat(jvms.pids()).isEqualTo(afterFirst);
            kept = afterFirst.get(0);
            assertThat(List.of(first, second)).allMatch(BenchResult::verified)
                    .allMatch(r -> r.entities() == 300 && r.costs().cpuNanos() > 0);
            // each run reports its own job, and the JVM's CPU since it started grows from one run to the next
            assertThat(log.stream().filter(l -> l.startsWith("  beam-keyranger: Job Bench_beam_keyranger_300_"))
                    .distinct()).hasSize(2);
            List<Double> jvmCpu = log.stream().map(Pattern.compile("its JVM's ([0-9.]+) s")::matcher)
                    .filter(Matcher::find).map(m -> Double.parseDouble(m.group(1))).toList();
            assertThat(jvmCpu).hasSize(2);
            assertThat(jvmCpu.get(1)).isGreaterThan(jvmCpu.get(0));

            ProcessHandle died = ProcessHandle.of(kept).orElseThrow();
            died.destroyForcibly();
            died.onExit().get();
            BenchResult third = runner.run(BenchStrategy.BEAM_KEYRANGER, settings);
            assertThat(third.verified()).isTrue();
            assertThat(jvms.pids()).hasSize(1).doesNotContain(kept);
            kept = jvms.pids().get(0);
        }
        // closing the bench's JVMs ends them
        assertThat(ProcessHandle.of(kept).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }
}
