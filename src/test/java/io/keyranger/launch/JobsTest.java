package io.keyranger.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobIds;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import io.keyranger.undo.JobUndo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * The application layer's decisions, read off the data it returns, with no window: what a launch must ask, refuse,
 * estimate, warn of and offer, and what it then runs (a group or a job, a revert) on the real emulator.
 */
@OnDataEmulators
class JobsTest {
    private static final String INCREMENT = "{\"template\": \"increment\", \"property\": \"n\", \"amount\": 1}";
    private static final String DELETE = "{\"template\": \"delete\"}";
    private static final String COUNT = "{\"template\": \"count\"}";

    @Parameter
    ServerType server;
    private ConnectionSpec conn;
    private Datastore datastore;
    private Jobs jobs;

    @BeforeEach
    void seed() {
        conn = SharedEmulator.freshProject(server, "launch");
        datastore = SharedEmulator.connect(conn);
        jobs = Jobs.on(Session.of(conn, datastore));
        List<Entity> all = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Alpha").newKey(i)).set("n", 1L).build());
        }
        for (int i = 1; i <= 12; i++) {
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Beta").newKey("b" + i)).set("n", 5L).build());
        }
        SharedEmulator.putAll(datastore, all);
    }

    private static JobSpec spec(String kind, String mapper) {
        return new JobSpec(JobIds.newJobId(kind), "", kind, MapperSpec.parse(mapper), 3, 4, 10, 0);
    }

    /** A group's spec: its kind names the kinds. */
    private static JobSpec groupSpec(String mapper) {
        return new JobSpec(JobIds.newJobId("group"), "", "Alpha,Beta", MapperSpec.parse(mapper), 3, 4, 10, 0);
    }

    private static JobResult finished(JobHandle handle) throws Exception {
        return handle.result().get(60, TimeUnit.SECONDS);
    }

    private Map<Key, Long> values(String kind) {
        Map<Key, Long> found = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind(kind).build())
                .forEachRemaining(e -> found.put(e.getKey(), e.getLong("n")));
        return found;
    }

    @Test
    void aReadOnlyConnectionRefusesAJobThatWritesAndLetsOneThatReadsRun() {
        Jobs readOnly = Jobs.on(Session.of(new ConnectionSpec(conn.emulatorHost(), conn.projectId(), "", "", null,
                true, conn.server()), datastore));

        Preparation delete = readOnly.prepare(JobRequest.job(spec("Alpha", DELETE)), 30, PriceTable.BUILT_IN);
        assertThat(delete.consent().refusal()).isEqualTo("The connection is read-only: the 'delete' mapper writes.");
        assertThat(delete.consent().allows(conn.projectId())).isFalse();
        assertThat(delete.consent().backupOffered()).as("nothing is offered for a job that cannot run").isFalse();
        assertThat(delete.consent().confirmsProject()).isFalse();

        Preparation count = readOnly.prepare(JobRequest.job(spec("Alpha", COUNT)), 30, PriceTable.BUILT_IN);
        assertThat(count.consent().refusal()).isNull();
        assertThat(count.consent().allows(null)).isTrue();
    }

    @Test
    void aProjectThatIsNotAnEmulatorNeedsItsIdTypedBeforeAJobThatWrites() {
        ConnectionSpec production = new ConnectionSpec(null, "prod-project", "", "", null, false);

        Consent delete = Consent.of(production, JobRequest.job(spec("Alpha", DELETE)), -1, PriceTable.BUILT_IN);
        assertThat(delete.confirmsProject()).isTrue();
        assertThat(delete.project()).isEqualTo("prod-project");
        assertThat(delete.allows(null)).isFalse();
        assertThat(delete.allows("other-project")).isFalse();
        assertThat(delete.allows("prod-project")).isTrue();

        Consent count = Consent.of(production, JobRequest.job(spec("Alpha", COUNT)), -1, PriceTable.BUILT_IN);
        assertThat(count.confirmsProject()).as("a job that only reads").isFalse();
        assertThat(count.allows(null)).isTrue();

        Consent revert = Consent.of(production, JobRequest.revert("job-1", JobUndo.RevertSettings.defaults()));
        assertThat(revert.template().name()).isEqualTo("revert");
        assertThat(revert.confirmsProject()).isTrue();

        Consent onTheEmulator = jobs.prepare(JobRequest.job(spec("Alpha", DELETE)), -1, PriceTable.BUILT_IN)
                .consent();
        assertThat(onTheEmulator.confirmsProject()).isFalse();
        assertThat(onTheEmulator.allows(null)).isTrue();
    }

    @Test
    void aJobOverSeveralKindsThatWritesAsksForTheKindsByNameAndChecksThem() {
        Preparation group = jobs.prepare(JobRequest.overKinds(groupSpec(INCREMENT), List.of("Alpha", "Beta")),
                -1, PriceTable.BUILT_IN);
        assertThat(group.consent().confirmsKinds()).isTrue();
        assertThat(group.consent().kinds()).containsExactly("Alpha", "Beta");
        assertThat(group.kinds()).as("checked on the server").containsExactly("Alpha", "Beta");
        assertThat(group.consent().backupOffered()).as("the export first is offered for one kind").isFalse();
        assertThat(group.consent().estimate()).isNull();

        Preparation count = jobs.prepare(JobRequest.overKinds(groupSpec(COUNT), List.of("Alpha", "Beta")),
                -1, PriceTable.BUILT_IN);
        assertThat(count.consent().confirmsKinds()).as("a job that only reads").isFalse();

        assertThatThrownBy(() -> jobs.prepare(JobRequest.overKinds(groupSpec(COUNT), List.of("Alpha", "Gamma")),
                -1, PriceTable.BUILT_IN)).hasMessageContaining("Kind 'Gamma' was not found");
    }

    @Test
    void deleteAndIncrementOfferAnExportFirstAndAJobWithoutUndoSaysItCannotBeReverted() {
        for (String writes : List.of(DELETE, INCREMENT)) {
            Consent consent = jobs.prepare(JobRequest.job(spec("Alpha", writes)), -1, PriceTable.BUILT_IN).consent();
            assertThat(consent.backupOffered()).as(writes).isTrue();
            assertThat(consent.noUndo()).as(writes).isFalse();
        }
        Consent count = jobs.prepare(JobRequest.job(spec("Alpha", COUNT)), -1, PriceTable.BUILT_IN).consent();
        assertThat(count.backupOffered()).isFalse();

        Consent noUndo = jobs.prepare(JobRequest.job(spec("Alpha", "{\"template\": \"delete\", \"undo\": false}")),
                -1, PriceTable.BUILT_IN).consent();
        assertThat(noUndo.noUndo()).isTrue();
        assertThat(noUndo.backupOffered()).isTrue();
    }

    @Test
    void theCostIsEstimatedOnceTheKindsCountIsKnown() {
        PriceTable prices = PriceTable.BUILT_IN;
        assertThat(jobs.prepare(JobRequest.job(spec("Alpha", INCREMENT)), -1, prices).consent().estimate()).isNull();
        assertThat(jobs.prepare(JobRequest.job(spec("Alpha", INCREMENT)), 30, prices).consent().estimate())
                .as("each entity read and written, and an undo record a commit (pages of 10 keys) written, as the dry "
                        + "run and the finished job count")
                .isEqualTo("Estimated for 30 entities: " + prices.describe(30, 33, 0));
        assertThat(jobs.prepare(JobRequest.job(spec("Alpha", DELETE)), 30, prices).consent().estimate())
                .as("each key read, an undo record a commit written, the entity deleted")
                .isEqualTo("Estimated for 30 entities: " + prices.describe(30, 3, 30));
        assertThat(jobs.prepare(JobRequest.job(spec("Alpha", COUNT)), 30, prices).consent().estimate())
                .isEqualTo("Estimated for 30 entities: " + prices.describe(30, 0, 0));
    }

    @Test
    void aSpecNamingAPropertyTheKindLacksIsWarnedOfAndAMissingKindRefused() {
        Preparation missing = jobs.prepare(JobRequest.job(spec("Alpha",
                "{\"template\": \"increment\", \"property\": \"balance\", \"amount\": 1}")), -1, PriceTable.BUILT_IN);
        assertThat(missing.warnings()).singleElement().asString().contains("balance").contains("Alpha");
        assertThat(jobs.prepare(JobRequest.job(spec("Alpha", INCREMENT)), -1, PriceTable.BUILT_IN).warnings())
                .isEmpty();

        assertThatThrownBy(() -> jobs.prepare(JobRequest.job(spec("Gamma", COUNT)), -1, PriceTable.BUILT_IN))
                .hasMessageContaining("Kind 'Gamma' was not found");
    }

    @Test
    void aResumeOfAGroupRunsTheGroupAndOfAJobTheJob() throws Exception {
        JobSpec overKinds = groupSpec(COUNT);
        JobResult group = finished(jobs.launch(jobs.prepare(JobRequest.overKinds(overKinds, List.of("Alpha", "Beta")),
                -1, PriceTable.BUILT_IN), JobListener.NONE, m -> { }));
        assertThat(group.status()).isEqualTo(JobStatus.DONE);
        assertThat(group.total("read")).isEqualTo(42);

        Preparation resumedGroup = jobs.prepare(JobRequest.resume(overKinds.jobId()), -1, PriceTable.BUILT_IN);
        assertThat(resumedGroup.resumesGroup()).isTrue();
        assertThat(resumedGroup.kinds()).containsExactly("Alpha", "Beta");
        assertThat(resumedGroup.consent()).as("agreed to when it started").isNull();
        JobResult again = finished(jobs.launch(resumedGroup, JobListener.NONE, m -> { }));
        assertThat(again.jobId()).isEqualTo(overKinds.jobId());
        assertThat(again.total("read")).as("each kind's done job counted, none run again").isEqualTo(42);

        JobSpec single = spec("Alpha", COUNT);
        finished(jobs.launch(JobRequest.job(single), JobListener.NONE, m -> { }, n -> { }));
        Preparation resumedJob = jobs.prepare(JobRequest.resume(single.jobId()), -1, PriceTable.BUILT_IN);
        assertThat(resumedJob.resumesGroup()).isFalse();
        assertThat(resumedJob.permanentFailures()).isEmpty();
        assertThat(finished(jobs.launch(JobRequest.takeOver(single.jobId(), true), JobListener.NONE, m -> { }, n -> { }))
                .jobId()).isEqualTo(single.jobId());

        assertThat(jobs.inspect(single.jobId()).status()).isEqualTo(JobStatus.DONE);
        assertThat(jobs.inspect(single.jobId()).totals()).containsEntry("read", 30L);
        assertThat(jobs.list().jobs()).extracting(j -> j.spec().jobId()).contains(single.jobId());
    }

    @Test
    void aRevertTakesBackWhatTheJobChangedAndAJobWithoutUndoIsRefused() throws Exception {
        Map<Key, Long> before = values("Alpha");
        JobSpec increment = spec("Alpha", INCREMENT);
        assertThat(finished(jobs.launch(JobRequest.job(increment), JobListener.NONE, m -> { }, n -> { })).status())
                .isEqualTo(JobStatus.DONE);
        assertThat(values("Alpha").values()).containsOnly(2L);

        JobUndo.RevertSettings settings = JobRequest.revert(increment.jobId(),
                new JobUndo.RevertSettings(null, false, 3, 4, 10, 0)).settings();
        String revertId = settings.revertId();
        assertThat(revertId).as("the request names the revert, for every front end").startsWith("revert-"
                + increment.jobId());
        Preparation revert = jobs.prepare(JobRequest.revert(increment.jobId(), settings), -1, PriceTable.BUILT_IN);
        assertThat(revert.reverted()).extracting(JobSpec::jobId).containsExactly(increment.jobId());
        assertThat(revert.kinds()).containsExactly("Alpha");
        assertThat(revert.consent().template().name()).isEqualTo("revert");
        JobResult reverted = finished(jobs.launch(revert, JobListener.NONE, m -> { }));
        assertThat(reverted.jobId()).isEqualTo(revertId);
        assertThat(reverted.status()).isEqualTo(JobStatus.DONE);
        assertThat(values("Alpha")).isEqualTo(before);

        JobSpec noUndo = spec("Beta", "{\"template\": \"increment\", \"property\": \"n\", \"amount\": 1, "
                + "\"undo\": false}");
        finished(jobs.launch(JobRequest.job(noUndo), JobListener.NONE, m -> { }, n -> { }));
        assertThatThrownBy(() -> jobs.prepare(JobRequest.revert(noUndo.jobId(), JobUndo.RevertSettings.defaults()),
                -1, PriceTable.BUILT_IN)).hasMessageContaining("--no-undo");
    }
}
