package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RunThroughput;
import io.keyranger.support.Jobs;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * A job's recorded running time leaves its pauses out, as the clock the app and the command line show while it runs
 * does: a job paused for seconds and then finished must not report those seconds (issue 47: the panel said one time,
 * the summary another). The pause must last a while for the difference to show, so the test lets time pass while
 * the job stands; it asserts no speed, only that the recorded time leaves out at least the pause it watched.
 * PauseGateTest checks the sum of pauses on a made-up timeline.
 */
class PausedTimeTest {
    @Test
    void aPausedJobsRecordedTimeLeavesThePauseOut() throws Exception {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("paused-time"));
        List<Entity> docs = new ArrayList<>();
        for (int i = 1; i <= 200; i++) {
            docs.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Doc").newKey("d" + i)).set("n", 0).build());
        }
        datastore.put(docs.toArray(new Entity[0]));
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, ServerType.EMULATOR.keyOrder(),
                ServerType.EMULATOR.limits());
        JobHandle[] running = new JobHandle[1];
        AtomicBoolean paused = new AtomicBoolean();
        long started = System.nanoTime();
        running[0] = executor.start(Jobs.over("Doc").id("paused").pageSize(10).spec(), new JobListener() {
            @Override
            public void onTotals(Map<String, Long> totals) {
                if (totals.getOrDefault("read", 0L) >= 40 && running[0] != null && paused.compareAndSet(false, true)) {
                    running[0].pause();
                }
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (running[0] == null || !running[0].isPaused()) {
            assertThat(running[0] == null || !running[0].result().isDone()).as("the job ended before it was paused")
                    .isTrue();
            assertThat(System.nanoTime()).as("the job was paused within a minute").isLessThan(deadline);
            Thread.sleep(20);
        }
        // the pause lasts at least from here to the resume below: time has to pass while the job stands
        long pauseFrom = System.nanoTime();
        while (System.nanoTime() - pauseFrom < TimeUnit.MILLISECONDS.toNanos(1500)) {
            Thread.sleep(50);
        }
        long pausedAtLeast = System.nanoTime() - pauseFrom;
        running[0].resume();
        JobResult result = running[0].result().get(60, TimeUnit.SECONDS);
        long wall = System.nanoTime() - started;

        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        assertThat(result.total("read")).isEqualTo(200);
        assertThat(result.wallMillis()).as("the job's time without the pause of %d ms", pausedAtLeast / 1_000_000)
                .isLessThanOrEqualTo(TimeUnit.NANOSECONDS.toMillis(wall - pausedAtLeast));

        // the chart Inspect draws afterwards leaves the stored pause out, and still adds up to every entity read
        JobStore.StoredJob stored = new JobStore(datastore).loadJob("paused");
        assertThat(stored.lastPauses()).hasSize(1);
        List<RunThroughput.Point> points = RunThroughput.of(executor.nodes("paused"), stored.finished(),
                stored.lastWallMillis(), stored.lastPauses());
        double drawn = 0;
        double previous = 0;
        for (RunThroughput.Point point : points) {
            drawn += point.rate() * (point.seconds() - previous);
            previous = point.seconds();
        }
        assertThat(drawn).isCloseTo(200, Offset.offset(1e-6));
    }
}
