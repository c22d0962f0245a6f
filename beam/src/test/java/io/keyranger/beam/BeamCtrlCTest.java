package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.cli.KeyRangerCli;
import io.keyranger.support.ChildCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C on the Beam launcher with a runner in its JVM (the DirectRunner) cancels the job as the command line's Ctrl-C
 * does: no range or page starts after it, only the commits under way end, the job is recorded cancelled, the launcher
 * says how to resume it and exits 4; {@code keyranger run --resume} then finishes it exactly once. Against the real
 * legacy emulator, the launcher in a child JVM sent a real SIGINT.
 */
class BeamCtrlCTest {
    private static final int ENTITIES = 1_500;
    private static final int PAGE = 20;
    private static final String INCREMENT = "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}";

    @TempDir
    Path dir;

    @Test
    void ctrlCCancelsThePipelineRecordsTheJobCancelledAndRunResumeFinishesItOnce() throws Exception {
        String project = BeamEmulator.freshProject("beam-ctrlc");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", ENTITIES);
        Path mapper = dir.resolve("increment.json");
        Files.writeString(mapper, INCREMENT);
        long before;
        int exit;
        long signalled;
        String log;
        // every call 40 ms slower: a few hundred entities a second, so the job is well under way and far from done
        try (ChildCli beam = ChildCli.startMainTakingCtrlC(BeamMain.class.getName(), List.of("--runner=DirectRunner",
                "--project=" + project, "--emulatorHost=" + BeamEmulator.host(project), "--kind=Item",
                "--mapper=" + mapper, "--jobId=beam-ctrl-c", "--shards=4", "--pageSize=" + PAGE,
                "--faults=latency=40"))) {
            long deadline = System.nanoTime() + 180_000_000_000L;
            while (count(datastore, 1) < 10 * PAGE && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            before = count(datastore, 1);
            beam.signal("INT");
            signalled = System.nanoTime();
            exit = beam.waitFor(90);
            log = beam.log();
        }
        long stoppedMillis = (System.nanoTime() - signalled) / 1_000_000;
        long written = count(datastore, 1);
        System.out.printf("Beam Ctrl-C: %d written at the signal, %d after it, exit %d after %d ms%n", before,
                written - before, exit, stoppedMillis);
        assertThat(exit).as(log).isEqualTo(BeamMain.CANCELLED);
        assertThat(log).contains("Job beam-ctrl-c: increment over Item cancelled")
                .contains("Resume it with: keyranger run --resume beam-ctrl-c");
        assertThat(before).as(log).isBetween(10L * PAGE, ENTITIES - 1L);
        // what the DirectRunner's threads had in flight (a page each), and what came between the look and the signal
        assertThat(written - before).as("written after Ctrl-C; " + log).isLessThanOrEqualTo(300);
        assertThat(count(datastore, 2)).as("none twice").isZero();
        Thread.sleep(1_000);
        assertThat(count(datastore, 1)).as("nothing written once it exited").isEqualTo(written);

        String[] jobs = cli(project, "jobs");
        assertThat(jobs[0]).as(jobs[1] + jobs[2]).isEqualTo("0");
        assertThat(jobs[1].lines().filter(l -> l.startsWith("beam-ctrl-c")).toList()).as(jobs[1])
                .singleElement().asString().contains("cancelled");

        String[] resumed = cli(project, "run", "--resume", "beam-ctrl-c");
        assertThat(resumed[0]).as(resumed[1] + resumed[2]).isEqualTo("0");
        assertThat(count(datastore, 1)).as("every entity incremented").isEqualTo(ENTITIES);
        assertThat(count(datastore, 2)).as("none twice").isZero();
    }

    /** {@code keyranger ARGS} in this JVM: its exit code and what it printed. */
    private String[] cli(String project, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--emulator-host", BeamEmulator.host(project), "--project", project));
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(dir, Map.of(), request -> { }), new PrintWriter(out),
                new PrintWriter(err), all.toArray(new String[0]));
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    /** Items whose n the emulator holds as {@code n}. */
    private static long count(Datastore datastore, long n) {
        long[] found = {0};
        datastore.run(Query.newKeyQueryBuilder().setKind("Item").setFilter(PropertyFilter.eq("n", n)).build())
                .forEachRemaining(k -> found[0]++);
        return found[0];
    }
}
