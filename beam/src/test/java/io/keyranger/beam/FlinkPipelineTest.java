package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        RangeRun.THROWN.clear();
        BeamEmulator.Run first = BeamEmulator.run(BeamEmulator.pipelineArgsOn("FlinkRunner", project, mapper(),
                "flink1", "--faults=rate=0.05,lost=0.05,seed=5", "--failAfterCommits=1", "--failures=1"));
        assertThat(first.exit()).as(first.out() + first.err()).isEqualTo(1);
        assertThat(first.err()).contains("the pipeline failed");
        assertThat(totals(datastore, "flink1").getOrDefault("read", 0L)).as("committed before the failure")
                .isBetween(1L, ENTITIES - 1L);

        BeamEmulator.Run rerun = BeamEmulator.run(BeamEmulator.pipelineArgsOn("FlinkRunner", project, mapper(),
                "flink1", "--faults=rate=0.05,lost=0.05,seed=6"));
        assertThat(rerun.exit()).as(rerun.out() + rerun.err()).isZero();
        assertThat(rerun.out()).contains("Job flink1: ").contains("on FlinkRunner");
        BeamPipelineTest.verify(datastore, "increment", totals(datastore, "flink1"), ENTITIES);
        // the local mini-cluster runs in the launcher's JVM, so the summary says where the time went, in order
        Matcher times = Pattern.compile("at ([0-9.]+) s").matcher(rerun.out()
                .lines().filter(l -> l.startsWith("Where the time went")).findFirst().orElse(""));
        List<Double> marks = new ArrayList<>();
        while (times.find()) {
            marks.add(Double.parseDouble(times.group(1)));
        }
        assertThat(marks).hasSize(6).isSorted();
        assertThat(FlinkRpcOnce.loads()).as("Flink's RPC system, loaded once for both mini-clusters").isEqualTo(1);
    }

    @Test
    void aFlinkPipelineKilledWithSigkillFinishesExactlyOnceWhenRerun() throws Exception {
        String project = BeamEmulator.freshProject("flinkkill");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", ENTITIES);
        BeamEmulator.killAfter(datastore, "flinkkilled", BeamEmulator.pipelineArgsOn("FlinkRunner", project, mapper(),
                "flinkkilled"), 200, ENTITIES, dir.resolve("killed.log"));
        BeamEmulator.Run rerun = BeamEmulator.run(BeamEmulator.pipelineArgsOn("FlinkRunner", project, mapper(),
                "flinkkilled"));
        assertThat(rerun.exit()).as(rerun.out() + rerun.err()).isZero();
        BeamPipelineTest.verify(datastore, "increment", totals(datastore, "flinkkilled"), ENTITIES);
    }

    private static Map<String, Long> totals(Datastore datastore, String jobId) {
        return BeamEmulator.totals(datastore, jobId);
    }
}
