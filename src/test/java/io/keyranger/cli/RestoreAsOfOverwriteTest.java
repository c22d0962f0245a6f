package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.KeyFactory;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code restore --as-of T --mode overwrite} writes back what changed since T and leaves what is already as it was
 * alone (its commit reads every key live anyway): it wrote all 98 entities where 27 differed. Its reads are those its
 * dry run counted, its reads of the past included (it counted only its live reads). On the Firestore emulator,
 * which keeps the past.
 */
class RestoreAsOfOverwriteTest {
    @TempDir
    Path dir;

    @Test
    void anOverwriteFromThePastWritesOnlyWhatChanged() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "restore-overwrite");
        Datastore datastore = SharedEmulator.connect(conn);
        KeyFactory keys = datastore.newKeyFactory().setKind("Item");
        List<Entity> then = new ArrayList<>();
        for (long id = 1; id <= 30; id++) {
            then.add(Entity.newBuilder(keys.newKey(id)).set("n", id).build());
        }
        datastore.put(then.toArray(new Entity[0]));
        Thread.sleep(1_000);
        Instant t = Instant.now();
        Thread.sleep(1_000);
        for (int i = 0; i < 5; i++) {
            datastore.put(Entity.newBuilder(then.get(i)).set("n", 1_000L + i).build());
        }

        InProcessCli.Result dry = new InProcessCli(dir, conn).run("restore", "--kind", "Item", "--as-of",
                t.toString(), "--mode", "overwrite", "--dry-run");
        InProcessCli.Result restore = new InProcessCli(dir, conn).run("restore", "--kind", "Item", "--as-of",
                t.toString(), "--mode", "overwrite", "--job-id", "ow");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        assertThat(restore.out()).as(restore.out()).containsPattern("read 30, written 5\\b")
                .contains("restored over a later change: 5").contains("already as at the time restored: 25");
        // per key a lookup at T, its live read and the key the query at T answered: as the dry run counted them
        assertThat(dry.out()).contains("Whole restore: 90 reads, ");
        assertThat(restore.out()).contains("Operations: 90 reads, ");
        for (Entity e : then) {
            assertThat(datastore.get(e.getKey())).as("as at T").isEqualTo(e);
        }
    }
}
