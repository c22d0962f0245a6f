package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
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
}
