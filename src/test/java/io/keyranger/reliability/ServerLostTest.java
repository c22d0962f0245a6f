package io.keyranger.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.FaultInjector;
import io.keyranger.emulator.CloudSdkLocator;
import io.keyranger.emulator.EmulatorManager;
import io.keyranger.emulator.RunningEmulator;
import io.keyranger.executor.AdaptiveSplitExecutor;
import io.keyranger.executor.JobHandle;
import io.keyranger.executor.JobListener;
import io.keyranger.executor.JobResult;
import io.keyranger.executor.JobSpec;
import io.keyranger.executor.JobStatus;
import io.keyranger.executor.RetryPolicy;
import io.keyranger.executor.ServerLimits;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapperSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server goes away mid-job: the job waits and goes on when it is back, or fails cleanly and resumes later. */
class ServerLostTest {
    private static final int ENTITIES = 1_200;
    private static final String CREDIT = "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}";

    @TempDir
    Path dataDir;

    private final EmulatorManager manager = new EmulatorManager(CloudSdkLocator.fromEnvironment(null));

    private static Datastore seed(RunningEmulator emulator) {
        Datastore datastore = DatastoreConnector.connect(ConnectionSpec.emulator(emulator.hostPort(), "lost"));
        List<Entity> entities = new ArrayList<>();
        for (int i = 1; i <= ENTITIES; i++) {
            entities.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Doc").newKey(i)).set("n", 0).build());
        }
        for (int i = 0; i < ENTITIES; i += 400) {
            datastore.put(entities.subList(i, i + 400).toArray(new Entity[0]));
        }
        return datastore;
    }

    private static AdaptiveSplitExecutor executor(Datastore datastore, long serverLostMillis) {
        // a little latency per call so that the job is still running when the server goes away
        return new AdaptiveSplitExecutor(new FaultInjector(0, 0, 4, 1).wrap(datastore), KeyOrder.EMULATOR,
                ServerLimits.EMULATOR, new RetryPolicy(8, 20, 500, serverLostMillis));
    }

    private static long awaitRead(Datastore datastore, String jobId, long target) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long read = 0;
        while (System.nanoTime() < deadline && read < target) {
            try {
                read = ShardedCounter.existing(datastore, "job:" + jobId).total("read");
            } catch (RuntimeException notYet) {
                read = 0;
            }
            Thread.sleep(20);
        }
        return read;
    }

    private static void assertEveryDocIncrementedOnce(Datastore datastore) {
        List<Entity> docs = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Doc").build()).forEachRemaining(docs::add);
        assertThat(docs).hasSize(ENTITIES).allMatch(e -> e.getLong("n") == 1);
    }

    @Test
    void theJobWaitsForTheServerAndGoesOnWhenItIsBack() throws Exception {
        RunningEmulator emulator = manager.start(0, dataDir);
        int port = emulator.port();
        Datastore datastore = seed(emulator);
        List<String> statuses = new CopyOnWriteArrayList<>();
        JobHandle job = executor(datastore, 60_000).start(new JobSpec("waits", "", "Doc", MapperSpec.parse(CREDIT), 4, 4,
                20, 0), new JobListener() {
                    @Override
                    public void onServerStatus(String problem) {
                        statuses.add(problem == null ? "back" : problem);
                    }
                });
        assertThat(awaitRead(datastore, "waits", 200)).isGreaterThanOrEqualTo(200);
        emulator.close();
        Thread.sleep(2_000);
        RunningEmulator restarted = manager.start(port, dataDir);
        try {
            JobResult result = job.result().get(120, TimeUnit.SECONDS);
            assertThat(result.status()).isEqualTo(JobStatus.DONE);
            assertThat(statuses).anyMatch(s -> s.startsWith("Waiting for the server")).contains("back");
            assertThat(result.total("written")).isEqualTo(ENTITIES);
            assertEveryDocIncrementedOnce(datastore);
        } finally {
            restarted.close();
        }
    }

    @Test
    void aServerThatNeverComesBackFailsTheJobCleanlyAndAResumeFinishesIt() throws Exception {
        RunningEmulator emulator = manager.start(0, dataDir);
        int port = emulator.port();
        Datastore datastore = seed(emulator);
        JobHandle job = executor(datastore, 1_500).start(new JobSpec("gives-up", "", "Doc", MapperSpec.parse(CREDIT), 4,
                4, 20, 0), JobListener.NONE);
        assertThat(awaitRead(datastore, "gives-up", 200)).isGreaterThanOrEqualTo(200);
        emulator.close();
        JobResult failed = job.result().get(60, TimeUnit.SECONDS);
        assertThat(failed.status()).isEqualTo(JobStatus.FAILED);

        RunningEmulator restarted = manager.start(port, dataDir);
        try {
            JobResult resumed = executor(datastore, 60_000).resume("gives-up", JobListener.NONE).await();
            assertThat(resumed.status()).isEqualTo(JobStatus.DONE);
            assertThat(resumed.total("written")).isEqualTo(ENTITIES);
            assertEveryDocIncrementedOnce(datastore);
        } finally {
            restarted.close();
        }
    }
}
