package io.keyranger.executor.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.executor.Engine;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobInput;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.LeaseMode;
import io.keyranger.job.RestoreMode;
import io.keyranger.job.RetryPolicy;
import io.keyranger.support.SharedEmulator;
import io.keyranger.undo.JobUndo;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job keeps its input in a property of its own, apart from its mapper; a job stored before that, with its input in
 * its mapper, still resumes and reverts: checked on the Firestore emulator with a restore from the past, the input
 * with the most parameters (its moment, format and mode).
 */
class StoredInputTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ENTITIES = 300;

    @Test
    void aRestoreKeepsItsInputApartAndOneStoredWithItInItsMapperResumesAndReverts() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "stored-input");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = new ArrayList<>();
        for (int i = 1; i <= ENTITIES; i++) {
            seeded.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Item").newKey(i * 7919L)).set("n", 0L)
                    .build());
        }
        SharedEmulator.putAll(datastore, seeded);
        Thread.sleep(20);
        Instant before = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(20);
        SharedEmulator.putAll(datastore, seeded.stream().map(e -> Entity.newBuilder(e).set("n", 1L).build())
                .toList());
        Engine engine = new Engine(Session.of(conn, datastore), RetryPolicy.DEFAULT, Duration.ofSeconds(30));

        // at most 100 entities a second: three seconds of work, stopped once some are back as they were
        JobSpec restore = RestoreSpec.fromPast(PointInTime.at(before), null, false, "", "Item",
                RestoreMode.OVERWRITE, null, null, true).job("R");
        restore = new JobSpec("R", "", "Item", restore.mapper(), 2, 1, 20, 100);
        JobHandle first = engine.start(restore, LeaseMode.RESUME, JobListener.NONE, m -> { });
        while (restoredCount(datastore) == 0 && !first.result().isDone()) {
            Thread.sleep(20);
        }
        first.cancel();
        assertThat(first.await().status()).as("stopped part-way").isEqualTo(JobStatus.CANCELLED);
        assertThat(restoredCount(datastore)).isBetween(1L, ENTITIES - 1L);

        Entity stored = datastore.get(new JobStore(datastore).jobKey("R"));
        ObjectNode mapper = (ObjectNode) JSON.readTree(stored.getString("mapper"));
        ObjectNode input = (ObjectNode) JSON.readTree(stored.getString(StoredInput.PROPERTY));
        assertThat(mapper.has(JobInput.FORMAT) || mapper.has(JobInput.AS_OF) || mapper.has(JobInput.MODE))
                .as("the mapper keeps no input: %s", mapper).isFalse();
        assertThat(input.path(JobInput.FORMAT).asText()).isEqualTo(JobInput.PAST);
        assertThat(input.path(JobInput.AS_OF).asText()).isEqualTo(before.toString());
        assertThat(input.path(JobInput.MODE).asText()).isEqualTo(RestoreMode.OVERWRITE.id());
        JobSpec loaded = new JobStore(datastore).loadJob("R").spec();
        assertThat(JobInput.of(loaded)).isEqualTo(new JobInput.Past(PointInTime.at(before), null, false, null,
                null, RestoreMode.OVERWRITE));

        // the job as a KeyRanger that kept a job's input in its mapper stored it
        mapper.setAll(input);
        datastore.put(Entity.newBuilder(stored).remove(StoredInput.PROPERTY).set("mapper",
                StringValue.newBuilder(mapper.toString()).setExcludeFromIndexes(true).build()).build());
        assertThat(new JobStore(datastore).loadJob("R").spec()).as("read as it was").isEqualTo(loaded);

        JobResult resumed = engine.resume("R", LeaseMode.RESUME, JobListener.NONE, m -> { }).await();
        assertThat(resumed.status()).isEqualTo(JobStatus.DONE);
        assertThat(restoredCount(datastore)).as("every entity as it was before").isEqualTo(ENTITIES);

        JobResult revert = JobUndo.startRevert(engine, "R", new JobUndo.RevertSettings("undo-R", false, 2, 2, 100,
                0), JobListener.NONE, m -> { }).await();
        assertThat(revert.status()).isEqualTo(JobStatus.DONE);
        assertThat(restoredCount(datastore)).as("the restore taken back: every entity as it was after").isZero();
        assertThat(datastore.run(Query.newEntityQueryBuilder().setKind("Item").build())).toIterable()
                .hasSize(ENTITIES).allMatch(e -> e.getLong("n") == 1L);
    }

    /** The Items the emulator's own query finds back at n = 0. */
    private static long restoredCount(Datastore datastore) {
        long count = 0;
        var items = datastore.run(Query.newEntityQueryBuilder().setKind("Item").build());
        while (items.hasNext()) {
            count += items.next().getLong("n") == 0L ? 1 : 0;
        }
        return count;
    }
}
