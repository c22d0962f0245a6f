package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import io.keyranger.counter.ShardedCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exactly-once pipeline tests on a runner that really runs in parallel: Flink's local mini-cluster, four task
 * slots in one JVM, against the real emulator. Faulty calls, lost commit answers, a worker that dies after commits and
 * a pipeline killed with SIGKILL: every entity's effect is applied exactly once, checked entity by entity.
 */
class FlinkPipelineTest {
    private static final int ENTITIES = 2_000;
    private static final String INCREMENT = "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}";

    @TempDir
    Path dir;

    private Path mapper() throws Exception {
        Path file = dir.resolve("increment.json");
        Files.writeString(file, INCREMENT);
        return file;
    }

    @Test
    void workersThatDieAfterCommitsAndFaultyCallsStillApplyEveryEntityExactlyOnceOnFlink() throws Exception {
        String project = BeamEmulator.freshProject("flink");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", ENTITIES);
        KeyRangeFn.THROWN.set(0);
        BeamEmulator.Run first = BeamEmulator.run(BeamEmulator.pipelineArgsOn("FlinkRunner", project, mapper(),
                "flink1", "--faults=rate=0.05,lost=0.05,seed=5", "--failAfterCommits=5", "--failures=1"));
        assertThat(first.exit()).as(first.out() + first.err()).isEqualTo(1);
        assertThat(first.err()).contains("the pipeline failed");
        assertThat(totals(datastore, "flink1").getOrDefault("read", 0L)).as("committed before the failure")
                .isBetween(1L, ENTITIES - 1L);

        BeamEmulator.Run rerun = BeamEmulator.run(BeamEmulator.pipelineArgsOn("FlinkRunner", project, mapper(),
                "flink1", "--faults=rate=0.05,lost=0.05,seed=6"));
        assertThat(rerun.exit()).as(rerun.out() + rerun.err()).isZero();
        assertThat(rerun.out()).contains("Job flink1: ").contains("on FlinkRunner");
        BeamPipelineTest.verify(datastore, "increment", totals(datastore, "flink1"), ENTITIES);
    }

    @Test
    void aFlinkPipelineKilledWithSigkillFinishesExactlyOnceWhenRerun() throws Exception {
        String project = BeamEmulator.freshProject("flinkkill");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", ENTITIES);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), BeamMain.class.getName()));
        command.addAll(List.of(BeamEmulator.pipelineArgsOn("FlinkRunner", project, mapper(), "flinkkilled")));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("killed.log").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            long read = 0;
            while (read < 200 && System.nanoTime() < deadline && process.isAlive()) {
                Thread.sleep(100);
                read = totals(datastore, "flinkkilled").getOrDefault("read", 0L);
            }
            assertThat(process.isAlive()).as(Files.readString(dir.resolve("killed.log"))).isTrue();
            assertThat(read).isBetween(200L, ENTITIES - 1L);
        } finally {
            process.destroyForcibly().waitFor();
        }
        BeamEmulator.Run rerun = BeamEmulator.run(BeamEmulator.pipelineArgsOn("FlinkRunner", project, mapper(),
                "flinkkilled"));
        assertThat(rerun.exit()).as(rerun.out() + rerun.err()).isZero();
        BeamPipelineTest.verify(datastore, "increment", totals(datastore, "flinkkilled"), ENTITIES);
    }

    private static Map<String, Long> totals(Datastore datastore, String jobId) {
        try {
            return ShardedCounter.existing(datastore, "job:" + jobId).totals();
        } catch (RuntimeException notYet) {
            return Map.of();
        }
    }
}
