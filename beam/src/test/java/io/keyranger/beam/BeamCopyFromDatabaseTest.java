package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ServerType;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RestoreMode;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A copy from another database as a Beam pipeline on the DirectRunner, on the Firestore emulator: the job
 * {@code restore --from-project} writes ({@code RestoreSpec.fromDatabase}), run by Beam, brings every entity of the
 * source project in as the emulator's own query of the source answers it (the key and the indexed key value placed
 * in the target project), each once; writes made to the source after the job's moment are not copied; and a local
 * {@code revert} of the Beam job leaves the target as it was.
 */
class BeamCopyFromDatabaseTest {
    private static final int SEEDED = 300;

    @TempDir
    Path dir;

    @Test
    void aCopyOnTheDirectRunnerBringsTheSourceAsItWasAtItsMomentAndIsRevertedExactly() throws Exception {
        String from = BeamEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "beam-copy-src");
        String to = BeamEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "beam-copy-tgt");
        ConnectionSpec source = ConnectionSpec.emulator(BeamEmulator.host(from), from, ServerType.FIRESTORE_EMULATOR);
        ConnectionSpec target = ConnectionSpec.emulator(BeamEmulator.host(to), to, ServerType.FIRESTORE_EMULATOR);
        Datastore there = BeamEmulator.connect(from);
        Datastore here = BeamEmulator.connect(to);
        SharedEmulator.putAll(there, RichEntities.of(there, "Item", SEEDED));
        Map<Key, Entity> atMoment = RichEntities.read(there, "", "Item"); // the emulator's own answer
        Thread.sleep(20);
        Instant moment = Instant.now();
        Thread.sleep(20);
        // after the moment: half of the source changed; the copy reads the moment
        List<Entity> later = atMoment.values().stream().limit(SEEDED / 2)
                .map(e -> Entity.newBuilder(e).set("balance", -1L).build()).toList();
        SharedEmulator.putAll(there, later);
        Map<Key, Entity> expected = new HashMap<>();
        atMoment.values().forEach(e -> {
            Key key = Key.newBuilder(e.getKey()).setProjectId(to).build();
            expected.put(key, Entity.newBuilder(key, e)
                    .set("ref", Key.newBuilder(e.getKey("ref")).setProjectId(to).build()).build());
        });

        JobSpec job = RestoreSpec.fromDatabase(source, PointInTime.at(moment), false, "", "Item",
                RestoreMode.SKIP_CHANGED, null, null, true).job("BC");
        Path mapper = new InProcessCli(dir, null).mapper(job.mapper().toJson());
        BeamEmulator.Run run = BeamEmulator.run(BeamEmulator.pipelineArgs(to, mapper, "BC"));
        assertThat(run.exit()).as(run.out() + run.err()).isZero();

        Map<Key, Entity> copied = RichEntities.read(here, "", "Item");
        assertThat(copied.keySet()).isEqualTo(expected.keySet());
        expected.forEach((key, entity) -> assertThat(copied.get(key)).as(key.toString()).isEqualTo(entity));
        assertThat(ShardedCounter.existing(here, "job:BC").totals()).containsEntry("written", (long) SEEDED);

        InProcessCli.Result revert = new InProcessCli(dir, target).run("revert", "BC");
        assertThat(revert.exitCode()).as(revert.out() + revert.err()).isZero();
        assertThat(RichEntities.read(here, "", "Item")).as("the target as before the copy").isEmpty();
    }

    /**
     * A sample of a kind of children (Item, under customers) copied with their ancestors on the DirectRunner: each
     * copied item's customer (and, for some, the customer's region) arrives once, as the source holds it, whichever
     * bundle wrote it first.
     */
    @Test
    void aSampleWithAncestorsOnTheDirectRunnerCopiesWholeGroupsEachOnce() throws Exception {
        String from = BeamEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "beam-anc-src");
        String to = BeamEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "beam-anc-tgt");
        ConnectionSpec source = ConnectionSpec.emulator(BeamEmulator.host(from), from, ServerType.FIRESTORE_EMULATOR);
        Datastore there = BeamEmulator.connect(from);
        Datastore here = BeamEmulator.connect(to);
        Key region = Key.newBuilder(from, "Region", "r1").build();
        List<Entity> seeded = new ArrayList<>(List.of(Entity.newBuilder(region).set("n", 0L).build()));
        for (int c = 0; c < 20; c++) {
            Key customer = c % 4 == 0 ? Key.newBuilder(region, "Customer", "c" + c).build()
                    : Key.newBuilder(from, "Customer", "c" + c).build();
            seeded.add(Entity.newBuilder(customer).set("n", (long) c).build());
            for (int o = 0; o < 10; o++) {
                seeded.add(Entity.newBuilder(Key.newBuilder(customer, "Item", o + 1).build()).set("total", (long) o)
                        .build());
            }
        }
        SharedEmulator.putAll(there, seeded);
        Map<Key, Entity> inSource = new HashMap<>();
        seeded.forEach(e -> inSource.put(Key.newBuilder(e.getKey()).setProjectId(to).build(),
                Entity.newBuilder(Key.newBuilder(e.getKey()).setProjectId(to).build(), e).build()));
        Thread.sleep(300);

        JobSpec job = RestoreSpec.fromDatabase(source, null, false, "", "Item", RestoreMode.SKIP_CHANGED, null, null,
                true).shaped(50.0, null).withAncestors(true).job("BA");
        Path mapper = new InProcessCli(dir, null).mapper(job.mapper().toJson());
        BeamEmulator.Run run = BeamEmulator.run(BeamEmulator.pipelineArgs(to, mapper, "BA"));
        assertThat(run.exit()).as(run.out() + run.err()).isZero();

        Map<Key, Entity> copied = new HashMap<>();
        for (String kind : List.of("Region", "Customer", "Item")) {
            here.run(Query.newEntityQueryBuilder().setKind(kind).build()).forEachRemaining(e -> copied.put(e.getKey(),
                    e));
        }
        Map<Key, Entity> expected = new HashMap<>();
        copied.keySet().stream().filter(k -> k.getKind().equals("Item")).forEach(order -> {
            for (Key k = order; k != null; k = k.getParent()) {
                expected.put(k, inSource.get(k));
            }
        });
        assertThat(expected.keySet()).as("a sample of the orders, some under a region")
                .anyMatch(k -> k.getKind().equals("Region")).hasSizeGreaterThan(60);
        assertThat(copied).as("each copied order with its whole group, as the source holds it").isEqualTo(expected);
        assertThat(ShardedCounter.existing(here, "job:BA").totals()).as("each written once")
                .containsEntry("written", (long) expected.size());
    }
}
