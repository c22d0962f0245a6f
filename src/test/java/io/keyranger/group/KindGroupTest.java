package io.keyranger.group;

import io.keyranger.job.LeaseMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.executor.Engine;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.OnlyOn;
import io.keyranger.support.SharedEmulator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/** Jobs over several kinds on the real emulator: one tree per kind, bookkeeping never touched, resume by kind. */
@OnDataEmulators
class KindGroupTest {
    @Parameter
    ServerType server;
    private Datastore datastore;
    private Engine launcher;

    @BeforeEach
    void seed() {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "group");
        datastore = SharedEmulator.connect(conn);
        launcher = new Engine(Session.of(conn, datastore), RetryPolicy.DEFAULT, Duration.ofSeconds(30));
        List<Entity> all = new ArrayList<>();
        for (int i = 1; i <= 45; i++) {
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Alpha").newKey(i)).set("n", 1L).build());
        }
        for (int i = 1; i <= 25; i++) {
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Beta").newKey("b" + i)).set("n", 1L).build());
        }
        all.add(Entity.newBuilder(datastore.newKeyFactory().setNamespace("other").setKind("Alpha").newKey(1))
                .set("n", 1L).build());
        datastore.put(all.toArray(new Entity[0]));
    }

    private JobSpec spec(String id, String mapper) {
        return new JobSpec(id, "", "(all kinds)", MapperSpec.parse(mapper), 3, 4, 10, 0);
    }

    private long sum(String namespace, String kind) {
        long total = 0;
        var it = datastore.run(Query.newEntityQueryBuilder().setNamespace(namespace).setKind(kind).build());
        while (it.hasNext()) {
            Entity e = it.next();
            total += e.contains("n") ? e.getLong("n") : 0;
        }
        return total;
    }

    @Test
    @OnlyOn(value = ServerType.EMULATOR, why = "the Firestore emulator cannot list kinds, so a job over all kinds "
            + "is refused there (bookkeepingReservedAndMissingKindsAreRefusedByName, FirestoreEmulatorCliTest)")
    void allKindsRunsEveryUserKindOnceWithATreePerKindAndLeavesBookkeepingAlone() throws Exception {
        // a finished job first, so that KeyRanger's own kinds exist in the namespace
        launcher.start(new JobSpec("earlier", "", "Beta", MapperSpec.parse("{\"template\":\"count\"}"), 1, 1, 10, 0),
                LeaseMode.RESUME, JobListener.NONE, m -> { }).await();
        List<String> kinds = JobKinds.kinds(datastore, "", List.of(), true);
        assertThat(kinds).containsExactly("Alpha", "Beta");
        KindGroup.Plan plan = KindGroup.create(datastore, "grp-all", kinds,
                spec("grp-all", "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}"));
        Map<String, NodeSnapshot> nodes = new ConcurrentHashMap<>();
        JobListener tree = new JobListener() {
            @Override
            public void onNode(NodeSnapshot node) {
                nodes.put(node.id(), node);
            }
        };
        JobResult result = KindGroup.run(launcher, plan, LeaseMode.RESUME, tree, m -> { }).await();
        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        assertThat(result.total("read")).isEqualTo(70);
        assertThat(result.total("written")).isEqualTo(70);
        assertThat(sum("", "Alpha")).isEqualTo(90);
        assertThat(sum("", "Beta")).isEqualTo(50);
        assertThat(sum("other", "Alpha")).as("another namespace").isEqualTo(1);
        assertThat(nodes.values().stream().filter(n -> n.parentId() == null).map(NodeSnapshot::id).toList())
                .containsExactlyInAnyOrder("Alpha", "Beta");
        assertThat(nodes.get("Alpha").status()).isEqualTo(NodeStatus.DONE);
        assertThat(nodes.get("Alpha").subtreeEntities()).isEqualTo(45);
        assertThat(nodes.keySet()).anyMatch(id -> id.startsWith("Alpha/r")).anyMatch(id -> id.startsWith("Beta/r"));
        assertThat(nodes.values()).filteredOn(n -> n.parentId() != null)
                .allSatisfy(n -> assertThat(nodes).containsKey(n.parentId()));
        var bookkeeping = datastore.run(Query.newEntityQueryBuilder().setKind(JobStore.JOB_KIND).build());
        while (bookkeeping.hasNext()) {
            assertThat(bookkeeping.next().contains("n")).isFalse();
        }
    }

    @Test
    void aResumedGroupSkipsKindsThatAreDoneAndFinishesTheRest() throws Exception {
        KindGroup.Plan plan = KindGroup.create(datastore, "grp-resume", List.of("Alpha", "Beta"),
                spec("grp-resume", "{\"template\":\"increment\",\"property\":\"n\",\"amount\":5}"));
        // the first kind finished, then the runner stopped before the second began
        assertThat(launcher.start(plan.child(0), LeaseMode.RESUME, JobListener.NONE, m -> { }).await().status())
                .isEqualTo(JobStatus.DONE);
        KindGroup.Plan loaded = KindGroup.load(datastore, "grp-resume");
        assertThat(loaded.kinds()).containsExactly("Alpha", "Beta");
        JobResult result = KindGroup.run(launcher, loaded, LeaseMode.RESUME, JobListener.NONE, m -> { }).await();
        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        assertThat(result.total("read")).isEqualTo(70);
        assertThat(sum("", "Alpha")).as("Alpha incremented once, not twice").isEqualTo(45 * 6);
        assertThat(sum("", "Beta")).isEqualTo(25 * 6);
        assertThatThrownBy(() -> KindGroup.create(datastore, "grp-resume", List.of("Alpha"), spec("grp-resume",
                "{\"template\":\"count\"}"))).hasMessageContaining("is taken");
    }

    @Test
    void theKindsOfAGroupNeverShareAnIdAtAnyLengthTheGroupIdMayHave() {
        List<String> kinds = new ArrayList<>();
        for (int k = 1; k <= 12; k++) {
            kinds.add("Kind" + "x".repeat(80));
        }
        for (int length = 1; length <= KindGroup.maxGroupIdLength(kinds.size()); length++) {
            String groupId = "g".repeat(length);
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < kinds.size(); i++) {
                String id = KindGroup.childId(groupId, i, kinds.get(i));
                assertThat(id).hasSizeLessThanOrEqualTo(100).startsWith(groupId + "." + (i + 1) + "-");
                ids.add(id);
            }
            assertThat(ids).as("group id of %d characters", length).hasSize(kinds.size());
        }
        assertThatThrownBy(() -> KindGroup.childId("g".repeat(96), 9, "Alpha")).hasMessageContaining("too long");
    }

    @Test
    void aResumedGroupWhoseKindsIdWasTakenMeanwhileRunsNothing() throws Exception {
        KindGroup.Plan plan = KindGroup.create(datastore, "grp-taken", List.of("Alpha", "Beta"),
                spec("grp-taken", "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}"));
        // before the group runs, a job of its own takes the id of the group's work on Beta
        launcher.start(new JobSpec(plan.child(1).jobId(), "", "Beta", MapperSpec.parse("{\"template\":\"count\"}"),
                1, 1, 10, 0), LeaseMode.RESUME, JobListener.NONE, m -> { }).await();
        KindGroup.Plan loaded = KindGroup.load(datastore, "grp-taken");
        assertThatThrownBy(() -> KindGroup.run(launcher, loaded, LeaseMode.RESUME, JobListener.NONE, m -> { }))
                .hasMessageContaining("Job id 'grp-taken.2-Beta'").hasMessageContaining("its own job over Beta");
        assertThat(sum("", "Alpha")).as("not even the first kind ran").isEqualTo(45);
        assertThat(sum("", "Beta")).isEqualTo(25);
    }

    @Test
    void bookkeepingReservedAndMissingKindsAreRefusedByName() {
        assertThatThrownBy(() -> JobKinds.kinds(datastore, server, "", List.of("Alpha", "_KeyRangerJob"), false))
                .hasMessageContaining("'_KeyRangerJob' is KeyRanger's own bookkeeping and is never mapped");
        assertThatThrownBy(() -> JobKinds.kinds(datastore, server, "", List.of("__kind__"), false))
                .hasMessageContaining("a kind Datastore reserves");
        assertThatThrownBy(() -> JobKinds.kinds(datastore, server, "", List.of("Alpha", "Gamma"), false))
                .hasMessageContaining("Kind 'Gamma' was not found");
        assertThat(JobKinds.kinds(datastore, server, "", List.of(" Beta", "Alpha", "Beta"), false))
                .containsExactly("Beta", "Alpha");
        // all kinds: listed where the server lists them; refused where it cannot (it would leave kinds out)
        assertThatThrownBy(() -> JobKinds.kinds(datastore, server, "empty-ns", List.of(), true))
                .hasMessageContaining(server.listsKinds() ? "has no kinds" : "cannot list kinds, so --all-kinds could "
                        + "leave some out: name them with --kind A,B");
    }
}
