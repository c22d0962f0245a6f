package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.ReadOption;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worst day: a script deleted the whole kind. {@code diff --as-of T0} and {@code restore --as-of T0} read the
 * kind as it was at T0, so an empty live kind is nothing to refuse: all of it was removed, and all of it comes back.
 */
class RestoreAsOfEmptyKindTest {
    @TempDir
    Path dir;

    @Test
    void aKindDeletedWholeIsComparedAndRestoredFromThePast() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "restore-empty");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = RichEntities.of(datastore, "Acct", 20);
        SharedEmulator.putAll(datastore, seeded);
        Thread.sleep(20);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(20);
        List<Key> keys = seeded.stream().map(Entity::getKey).toList();
        datastore.delete(keys.toArray(new Key[0]));
        assertThat(RichEntities.read(datastore, "", "Acct")).isEmpty();
        InProcessCli cli = new InProcessCli(dir, conn);

        Path out = dir.resolve("diff");
        InProcessCli.Result diff = cli.run("diff", "--as-of", t0.toString(), "--kind", "Acct", "--keys-out",
                out.toString());
        assertThat(diff.exitCode()).as(diff.out() + diff.err()).isZero();
        assertThat(diff.out()).containsPattern("removed\\s+20\\b").containsPattern("added\\s+0\\b");
        assertThat(KeysFile.read(out.resolve("removed.keys"), conn.projectId(), "")).isEqualTo(Set.copyOf(keys));

        InProcessCli.Result restore = cli.run("restore", "--as-of", t0.toString(), "--kind", "Acct",
                "--job-id", "E");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        Map<Key, Entity> atT0 = new HashMap<>();
        datastore.get(keys, ReadOption.readTime(Timestamp.ofTimeSecondsAndNanos(t0.getEpochSecond(), t0.getNano())))
                .forEachRemaining(e -> atT0.put(e.getKey(), e));
        assertThat(atT0).as("the emulator's own lookup at T0").hasSize(20);
        List<Entity> now = new ArrayList<>();
        datastore.get(keys).forEachRemaining(now::add);
        assertThat(now.stream().collect(Collectors.toMap(Entity::getKey, e -> e))).as("entity by entity")
                .isEqualTo(atT0);
    }
}
