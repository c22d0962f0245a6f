package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --migrations=DIR} on the DirectRunner, on the Firestore emulator: a folder's two migrations (a CEL transform,
 * a delete) applied as pipelines, recorded in the database's ledger as {@code keyranger migrate up} records them (its
 * {@code status} reads them back), and not applied again by a second launch; what they leave is compared with the
 * emulator's own answers, entity by entity.
 */
class BeamMigrationsTest {
    @TempDir
    Path dir;

    @Test
    void aFoldersMigrationsRunAsPipelinesAndAreRecordedAsTheCommandLineRecordsThem() throws Exception {
        String project = BeamEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "beam-migrate");
        Datastore ds = BeamEmulator.connect(project);
        List<Entity> seeded = new ArrayList<>();
        for (int i = 1; i <= 120; i++) {
            seeded.add(Entity.newBuilder(ds.newKeyFactory().setKind("Item").newKey(i)).set("n", i)
                    .set("legacy", "L" + i).build());
        }
        for (int i = 1; i <= 30; i++) {
            seeded.add(Entity.newBuilder(ds.newKeyFactory().setKind("Obsolete").newKey(i)).set("i", i).build());
        }
        SharedEmulator.putAll(ds, seeded);
        Path folder = dir.resolve("migrations");
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("0001_fill.json"), "{\"steps\": [{\"kind\": \"Item\", \"mapper\": "
                + "{\"template\": \"transform\", \"set\": {\"label\": \"legacy + '!'\", \"score\": \"n * 2\"}, "
                + "\"remove\": [\"legacy\"]}}]}");
        Files.writeString(folder.resolve("0002_drop.json"), "{\"steps\": [{\"kind\": \"Obsolete\", \"mapper\": "
                + "{\"template\": \"delete\"}}]}");
        String[] args = {"--runner=DirectRunner", "--project=" + project, "--emulatorHost=" + BeamEmulator.host(project),
            "--migrations=" + folder, "--shards=4", "--pageSize=40"};

        BeamEmulator.Run run = BeamEmulator.run(args);
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        Map<Key, Entity> expected = new HashMap<>();
        for (int i = 1; i <= 120; i++) {
            Entity e = Entity.newBuilder(ds.newKeyFactory().setKind("Item").newKey(i)).set("n", i)
                    .set("label", "L" + i + "!").set("score", 2L * i).build();
            expected.put(e.getKey(), e);
        }
        Map<Key, Entity> items = new HashMap<>();
        ds.run(Query.newEntityQueryBuilder().setKind("Item").build()).forEachRemaining(e -> items.put(e.getKey(), e));
        assertThat(items).isEqualTo(expected);
        List<Key> obsolete = new ArrayList<>();
        ds.run(Query.newKeyQueryBuilder().setKind("Obsolete").build()).forEachRemaining(obsolete::add);
        assertThat(obsolete).isEmpty();
        assertThat(ShardedCounter.existing(ds, "job:migrate-0001-1-1").totals()).containsEntry("written", 120L);

        ConnectionSpec conn = ConnectionSpec.emulator(BeamEmulator.host(project), project,
                ServerType.FIRESTORE_EMULATOR);
        InProcessCli.Result status = new InProcessCli(dir, conn).run("migrate", "status", "--dir", folder.toString());
        assertThat(status.exitCode()).as(status.err()).isZero();
        assertThat(status.out()).contains("0001  0001_fill.json").contains("applied").contains("migrate-0002-1-1")
                .doesNotContain("pending");

        BeamEmulator.Run again = BeamEmulator.run(args);
        assertThat(again.exit()).as(again.out() + again.err()).isZero();
        assertThat(again.err()).contains("Nothing to apply");
    }
}
