package io.keyranger.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.cli.RevertCommand;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
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
 * {@code keyranger restore --as-of T} end to end on the production model, now that it keeps versions: a kind damaged
 * after T (entities changed, deleted, added) is brought back to exactly what it was at T, entity by entity against a
 * snapshot read before the damage; with {@code --until}, a window of damage is undone and later writes are left alone.
 */
class ModelRestoreAsOfTest {
    private static final int SEEDED = 300;

    @TempDir
    Path dir;

    @Test
    void aRestoreAsOfAMomentBringsBackTheKindExactlyAsItWasThen() throws Exception {
        try (ModelServer server = ModelServer.start(0, ModelServer.Options.DEFAULT.withLatency(1, 5))) {
            ConnectionSpec conn = ConnectionSpec.model(server.hostPort(), "restore-as-of");
            Datastore datastore = Session.open(conn).datastore();
            List<Entity> seeded = RichEntities.put(datastore, "Item", SEEDED);
            Map<Key, Entity> before = RichEntities.read(datastore, "", "Item");
            assertThat(before).hasSize(SEEDED);
            Thread.sleep(20);
            Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
            Thread.sleep(20);

            List<Entity> damaged = new ArrayList<>();
            List<Key> deleted = new ArrayList<>();
            for (int i = 0; i < SEEDED; i++) {
                Entity e = seeded.get(i);
                if (i % 3 == 0) {
                    damaged.add(Entity.newBuilder(e).set("balance", -1L).remove("tags").set("damaged", true).build());
                } else if (i % 3 == 1 && i % 2 == 0) {
                    deleted.add(e.getKey());
                }
            }
            damaged.addAll(RichEntities.of(datastore, "Item", SEEDED + 40).subList(SEEDED, SEEDED + 40));
            for (int i = 0; i < damaged.size(); i += 100) {
                datastore.put(damaged.subList(i, Math.min(damaged.size(), i + 100)).toArray(new Entity[0]));
            }
            datastore.delete(deleted.toArray(new Key[0]));
            Map<Key, Entity> after = RichEntities.read(datastore, "", "Item");
            assertThat(after).hasSize(SEEDED - deleted.size() + 40).isNotEqualTo(before);
            assertThat(RichEntities.readAt(datastore, "", "Item", t0)).as("the model's own read as of t0")
                    .isEqualTo(before);

            InProcessCli.Result restore = new InProcessCli(dir, conn).offline("restore", "--as-of", t0.toString(),
                    "--kind", "Item", "--mode", "overwrite", "--remove-added", "--job-id", "R", "--model-host",
                    server.hostPort(), "--project", conn.projectId());
            assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();

            assertThat(RichEntities.read(datastore, "", "Item")).as("entity by entity, as before the damage")
                    .isEqualTo(before);
        }
    }

    @Test
    void aRestoreOfAWindowOfDamageUndoesItAndLeavesLaterWritesAlone() throws Exception {
        try (ModelServer server = ModelServer.start(0, ModelServer.Options.DEFAULT.withLatency(1, 5))) {
            ConnectionSpec conn = ConnectionSpec.model(server.hostPort(), "restore-until");
            Datastore datastore = Session.open(conn).datastore();
            List<Entity> seeded = RichEntities.put(datastore, "Item", SEEDED);
            Map<Key, Entity> expected = new HashMap<>(RichEntities.read(datastore, "", "Item"));
            Thread.sleep(20);
            Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
            Thread.sleep(20);
            List<Entity> damaged = new ArrayList<>();
            List<Key> deleted = new ArrayList<>();
            for (int i = 0; i < SEEDED; i++) {
                if (i % 3 == 0) {
                    damaged.add(Entity.newBuilder(seeded.get(i)).set("balance", -1L).build());
                } else if (i % 6 == 4) {
                    deleted.add(seeded.get(i).getKey());
                }
            }
            damaged.addAll(RichEntities.of(datastore, "Item", SEEDED + 20).subList(SEEDED, SEEDED + 20));
            for (int i = 0; i < damaged.size(); i += 100) {
                datastore.put(damaged.subList(i, Math.min(damaged.size(), i + 100)).toArray(new Entity[0]));
            }
            datastore.delete(deleted.toArray(new Key[0]));
            Thread.sleep(20);
            Instant t1 = Instant.now().truncatedTo(ChronoUnit.MICROS);
            Thread.sleep(20);
            List<Entity> later = new ArrayList<>(); // written again after the window: left alone
            for (int i = 0; i < 30; i += 3) {
                later.add(Entity.newBuilder(seeded.get(i)).set("balance", 7L).set("later", true).build());
            }
            datastore.put(later.toArray(new Entity[0]));
            later.forEach(e -> expected.put(e.getKey(), e));

            InProcessCli.Result restore = new InProcessCli(dir, conn).offline("restore", "--as-of", t0.toString(),
                    "--until", t1.toString(), "--kind", "Item", "--remove-added", "--job-id", "U", "--model-host",
                    server.hostPort(), "--project", conn.projectId());
            assertThat(restore.exitCode()).as("done, later writes left alone: " + restore.out() + restore.err())
                    .isEqualTo(RevertCommand.EXIT_CONFLICTS);
            assertThat(restore.err()).contains("10 entities written again after --until kept their later values");

            Map<Key, Entity> now = RichEntities.read(datastore, "", "Item");
            assertThat(now).as("entity by entity: the window undone, the later writes kept").isEqualTo(expected);
        }
    }
}
