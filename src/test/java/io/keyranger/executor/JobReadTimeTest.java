package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Entity;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RetryPolicy;
import io.keyranger.launch.JobRequest;
import io.keyranger.launch.Jobs;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that only reads keeps the moment it reads at in its stored spec: a runner that takes it over (Beam's launcher,
 * given the same mapper file) reads at that moment too, and a run once the server no longer keeps it is refused
 * before anything is read.
 */
class JobReadTimeTest {
    @TempDir
    Path dir;

    @Test
    void aTakenOverJobKeepsItsReadTimeAndOneTheServerNoLongerKeepsIsRefused() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "readtime");
        Session session = Session.open(conn);
        session.datastore().put(Entity.newBuilder(session.datastore().newKeyFactory().setKind("K").newKey(1)).build());
        MapperSpec count = MapperSpec.parse("{\"template\":\"count\"}");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

        JobSpec fresh = JobReadTime.settled(session, RetryPolicy.DEFAULT, new JobSpec("new", "", "K", count, 1, 1, 10,
                0), now);
        assertThat(fresh.mapper().readTime()).as("a new job reads as of its start").isEqualTo(now);
        JobSpec writes = new JobSpec("inc", "", "K", MapperSpec.parse("{\"template\":\"delete\"}"), 1, 1, 10, 0);
        assertThat(JobReadTime.settled(session, RetryPolicy.DEFAULT, writes, now)).as("a job that writes reads live")
                .isEqualTo(writes);

        Instant recent = now.minus(Duration.ofMinutes(2)); // inside the Firestore emulator's 4 minutes
        PipelineJobs.createOrOpen(session.datastore(), session.order(), new JobSpec("recent", "", "K",
                count.withReadTime(recent), 1, 1, 10, 0), PipelineJobs.BEAM, Cancellation.NEVER).detach();
        assertThat(JobReadTime.settled(session, RetryPolicy.DEFAULT, new JobSpec("recent", "", "K", count, 1, 1, 10,
                0), now).mapper().readTime()).as("the stored job's moment, not this run's").isEqualTo(recent);

        Instant old = now.minus(Duration.ofHours(2));
        PipelineJobs.createOrOpen(session.datastore(), session.order(), new JobSpec("old", "", "K",
                count.withReadTime(old), 1, 1, 10, 0), PipelineJobs.BEAM, Cancellation.NEVER).detach();
        assertThatThrownBy(() -> JobReadTime.settled(session, RetryPolicy.DEFAULT, new JobSpec("old", "", "K", count,
                1, 1, 10, 0), now)).isInstanceOf(KeyRangerException.class).hasMessageContaining(old.toString())
                .hasMessageContaining("no longer keeps");
        InProcessCli.Result resumed = new InProcessCli(dir, conn).run("run", "--resume", "old");
        assertThat(resumed.exitCode()).isNotZero();
        assertThat(resumed.err()).contains("Job old reads the database as it was at " + old)
                .contains("no longer keeps").doesNotContain("\tat ");
    }

    @Test
    void aNewJobWhoseSpecGivesAReadTimeTheServerDoesNotKeepIsRefusedBeforeAnythingIsRead() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        MapperSpec count = MapperSpec.parse("{\"template\":\"count\"}");
        Session legacy = Session.open(SharedEmulator.freshProject(ServerType.EMULATOR, "readtime-given"));
        legacy.datastore().put(Entity.newBuilder(legacy.datastore().newKeyFactory().setKind("K").newKey(1)).build());
        JobSpec given = new JobSpec("given", "", "K", count.withReadTime(now), 1, 1, 10, 0);
        assertThatThrownBy(() -> Jobs.on(legacy).launch(JobRequest.job(given), JobListener.NONE, m -> { }, n -> { }))
                .as("the legacy emulator would read live while the job claims a snapshot")
                .isInstanceOf(KeyRangerException.class).hasMessageContaining("keeps no past versions");
        assertThat(new JobStore(legacy.datastore()).findJob("given")).as("nothing started").isNull();

        Session session = Session.open(SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "readtime-given"));
        Instant old = now.minus(Duration.ofHours(2));
        assertThatThrownBy(() -> JobReadTime.settled(session, RetryPolicy.DEFAULT, new JobSpec("old", "", "K",
                count.withReadTime(old), 1, 1, 10, 0), now)).as("a new job on Beam's launcher")
                .isInstanceOf(KeyRangerException.class).hasMessageContaining(old.toString())
                .hasMessageContaining("no longer keeps");
    }
}
