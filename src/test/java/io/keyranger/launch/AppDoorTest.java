package io.keyranger.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.PageMapper;
import io.keyranger.support.RefusingMapper;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The app's door ({@link Jobs#launch(JobRequest, io.keyranger.job.JobListener, java.util.function.Consumer, java.util.function.Consumer)}) checks what the command line's does: before, it skipped the room check of an
 * export's disk, the warning of a spec's unknown property and a resumed job's failures that retrying will not fix.
 */
class AppDoorTest {
    private Datastore datastore;
    private Session session;
    private Jobs jobs;

    @BeforeEach
    void seed() {
        ConnectionSpec conn = SharedEmulator.freshProject("door");
        datastore = SharedEmulator.connect(conn);
        session = Session.of(conn, datastore);
        jobs = Jobs.on(session);
        List<Entity> all = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Acct").newKey(i)).set("n", 1L).build());
        }
        SharedEmulator.putAll(datastore, all);
    }

    private static JobSpec spec(String id, String mapper) {
        return new JobSpec(id, "", "Acct", MapperSpec.parse(mapper), 2, 2, 5, 0);
    }

    private static JobResult finished(io.keyranger.job.JobHandle handle) throws Exception {
        return handle.result().get(60, TimeUnit.SECONDS);
    }

    @Test
    void anExportToADiskWithoutRoomIsRefusedBeforeItStarts() {
        // /proc has no usable space: any export is too big for it
        Path file = Path.of("/proc/keyranger-door-export.jsonl");
        assertThatThrownBy(() -> jobs.launch(JobRequest.job(spec("export-full", "{\"template\":\"export\",\"file\":\""
                + file + "\"}")), JobListener.NONE, m -> { }, n -> { }))
                .isInstanceOf(KeyRangerException.class).hasMessageStartingWith("Not enough room for the export");
        assertThat(new io.keyranger.executor.store.JobStore(datastore).findJob("export-full"))
                .as("no job was stored").isNull();
        assertThat(Files.exists(file)).isFalse();
    }

    @Test
    void aSpecNamingAPropertyTheKindLacksIsWarnedOf() throws Exception {
        List<String> notices = new ArrayList<>();
        JobResult done = finished(jobs.launch(JobRequest.job(spec("typo", "{\"template\":\"increment\","
                + "\"property\":\"nn\",\"amount\":1}")), JobListener.NONE, m -> { }, notices::add));
        assertThat(done.status()).isEqualTo(JobStatus.DONE);
        assertThat(notices).singleElement().asString().contains("'nn'").contains("Did you mean 'n'?");
    }

    @Test
    void aResumedJobsFailuresThatRetryingWillNotFixAreNamed() throws Exception {
        PageMapper refusing = RefusingMapper.everyPage();
        JobResult failed = new AdaptiveSplitExecutor(datastore, session.order(), session.limits())
                .start(spec("refused", "{\"template\":\"count\"}"), refusing, JobListener.NONE).await();
        assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
        List<String> notices = new ArrayList<>();
        JobResult resumed = finished(jobs.launch(JobRequest.resume("refused"), JobListener.NONE, m -> { },
                notices::add));
        assertThat(resumed.status()).as("the count itself needs no permission it lacks").isEqualTo(JobStatus.DONE);
        assertThat(notices).singleElement().asString().startsWith("2 ranges of refused failed with: ")
                .contains("PERMISSION_DENIED").contains("does not go away by retrying");
    }
}
