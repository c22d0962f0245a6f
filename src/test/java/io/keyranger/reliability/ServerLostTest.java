package io.keyranger.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.emulator.CloudSdkLocator;
import io.keyranger.emulator.EmulatorManager;
import io.keyranger.emulator.RunningEmulator;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.keys.KeyOrder;
import io.keyranger.testhooks.GatedMapper;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
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
        return new AdaptiveSplitExecutor(datastore, KeyOrder.EMULATOR, ServerLimits.EMULATOR,
                new RetryPolicy(8, 20, 500, serverLostMillis));
    }

    /** The increment, held at a gate after 10 chunks: the job is mid-run, deterministically, when the server goes. */
    private static GatedMapper gated() {
        return new GatedMapper(Mappers.create(MapperSpec.parse(CREDIT)), 10);
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
        GatedMapper gate = gated();
        JobHandle job = executor(datastore, 60_000).start(new JobSpec("waits", "", "Doc", MapperSpec.parse(CREDIT), 4, 4,
                20, 0), gate, new JobListener() {
                    @Override
                    public void onServerStatus(String problem) {
                        statuses.add(problem == null ? "back" : problem);
                    }
                });
        gate.awaitHeld(4); // every worker held: no commit in flight when the server goes
        long stopping = System.nanoTime();
        emulator.close();
        long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping);
        gate.release(); // the held commits now meet a server that is gone
        Thread.sleep(2_000);
        RunningEmulator restarted = manager.start(port, dataDir);
        try {
            JobResult result = job.result().get(120, TimeUnit.SECONDS);
            assertThat(result.status()).as("%s (the emulator took %d ms to stop)", result.message(), stopMillis)
                    .isEqualTo(JobStatus.DONE);
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
        GatedMapper gate = gated();
        // 8 ranges on 4 workers: 4 wait in the queue while the others are held at the gate
        JobHandle job = executor(datastore, 1_500).start(new JobSpec("gives-up", "", "Doc", MapperSpec.parse(CREDIT), 8,
                4, 20, 0), gate, JobListener.NONE);
        gate.awaitHeld(4); // every worker held: no commit in flight when the server goes
        emulator.close();
        gate.release();
        JobResult failed = job.result().get(60, TimeUnit.SECONDS);
        assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
        // said once, with what to do; the queued ranges were not started to wait for the server again
        assertThat(failed.message()).contains("unreachable for 1.5 s")
                .contains("resume the job when the server is back");
        assertThat(failed.report().failures()).anySatisfy(group -> {
            assertThat(group.reason()).startsWith("not started: the server was unreachable for 1.5 s");
            assertThat(group.count()).isGreaterThanOrEqualTo(4);
        });

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
