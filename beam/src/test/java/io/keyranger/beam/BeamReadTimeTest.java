package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.formats.managed.ExportSnapshot;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.PastReads;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.PipelineJobs;
import io.keyranger.files.LocalFileStore;
import io.keyranger.job.JobSpec;
import io.keyranger.mapper.MapperSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export job stored with a read time (as a local run stores it: its start, or {@code --as-of}) and finished on Beam
 * reads every page at that moment, though Beam is given the same mapper file with no time in it: on the Firestore
 * emulator in Datastore mode, the file is the kind as the emulator itself answers at that moment, entity by entity.
 */
class BeamReadTimeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void anExportFinishedOnBeamReadsAtTheMomentItsJobWasStoredWith() throws Exception {
        String project = BeamEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "beam-asof");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", 300);
        Thread.sleep(5);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(5);
        List<Key> keys = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Item").build()).forEachRemaining(keys::add);
        List<Entity> changed = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            changed.add(Entity.newBuilder(keys.get(100 + i)).set("n", 99).set("color", "changed").build());
            changed.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Item").newKey("added-" + i)).build());
        }
        datastore.delete(keys.subList(0, 30).toArray(new Key[0]));
        datastore.put(changed.toArray(new Entity[0]));

        Path file = dir.resolve("items.jsonl");
        Path mapper = dir.resolve("export.json");
        Files.writeString(mapper, "{\"template\":\"export\",\"file\":\"" + file + "\"}");
        // the job as a local run that stopped stored it: reading as of t0
        MapperSpec stored = MapperSpec.read(mapper).withReadTime(t0);
        PipelineJobs.createOrOpen(datastore, ServerType.FIRESTORE_EMULATOR.keyOrder(), new JobSpec("snap", "",
                "Item", stored, 4, 4, 200, 0), PipelineJobs.BEAM, Cancellation.NEVER).finish(1);

        BeamEmulator.Run run = BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper, "snap"));
        assertThat(run.exit()).as(run.out() + run.err()).isZero();

        Datastore past = PastReads.at(datastore, Timestamp.ofTimeSecondsAndNanos(t0.getEpochSecond(), t0.getNano()));
        List<Key> then = new ArrayList<>();
        past.run(Query.newKeyQueryBuilder().setKind("Item").build()).forEachRemaining(then::add);
        Map<String, String> expected = new HashMap<>();
        past.fetch(then.toArray(new Key[0])).forEach(e -> expected.put(e.getKey().toString(),
                EntityCodec.encode(e).toString()));
        Map<String, String> exported = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            exported.put(EntityCodec.decode(JSON.readTree(line), project, "").getKey().toString(), line);
        }
        assertThat(expected).hasSize(300);
        assertThat(exported).as("the kind as of t0, not as it is now").isEqualTo(expected);
        assertThat(ExportSnapshot.read(LocalFileStore.INSTANCE, file + ExportSnapshot.JSON_LINES_SUFFIX).readTime())
                .isEqualTo(t0);
    }
}
