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
import io.keyranger.support.ChildCli;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore from the past narrowed by {@code --keys F} keeps the keys F held when it started: killed mid-way, it is
 * refused (nothing written) when F now holds other keys, whether run again with its options or by
 * {@code run --resume}; with F as it was, it finishes exactly, entity by entity as the emulator's lookups at T0 say.
 */
class RestoreAsOfKeysFileTest {
    @TempDir
    Path dir;

    @Test
    void aChangedKeysFileIsRefusedOnResume() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "restore-keys");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = RichEntities.of(datastore, "Item", 300);
        SharedEmulator.putAll(datastore, seeded);
        Thread.sleep(20);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(20);
        List<Key> keys = seeded.stream().map(Entity::getKey).toList();
        for (int i = 0; i < keys.size(); i += 100) {
            datastore.delete(keys.subList(i, i + 100).toArray(new Key[0]));
        }
        List<Key> asked = keys.subList(0, 200);
        Path file = dir.resolve("asked.keys");
        KeysFile.write(file, asked);

        List<String> restore = List.of("restore", "--kind", "Item", "--as-of", t0.toString(), "--keys",
                file.toString(), "--job-id", "K");
        try (ChildCli child = ChildCli.start(dir, conn, List.of(with(restore, "--workers", "2", "--page-size", "10",
                "--hold-between-chunks", "3", "--lease-seconds", "2")))) { // no lock left behind
            child.awaitHeld();
            child.kill();
        }
        Map<Key, Entity> atKill = RichEntities.read(datastore, "", "Item");
        assertThat(atKill).as("killed mid-way").isNotEmpty().hasSizeLessThan(200);

        KeysFile.write(file, asked.subList(0, 150));
        InProcessCli cli = new InProcessCli(dir, conn);
        InProcessCli.Result again = cli.run(restore.toArray(new String[0]));
        assertThat(again.exitCode()).as(again.out() + again.err()).isEqualTo(KeyRangerCli.EXIT_USER_ERROR);
        assertThat(again.err()).contains("Job K was started on other input", "200 keys from a keys file",
                "150 keys from a keys file", "Nothing was written").doesNotContain("\tat ");
        InProcessCli.Result resumeChanged = cli.run("run", "--resume", "K");
        assertThat(resumeChanged.exitCode()).as(resumeChanged.out() + resumeChanged.err()).isNotZero();
        assertThat(resumeChanged.err()).contains("Job K was started on other input", "200 keys from a keys file")
                .doesNotContain("\tat ");
        assertThat(RichEntities.read(datastore, "", "Item")).as("nothing written").isEqualTo(atKill);

        KeysFile.write(file, asked);
        Thread.sleep(2_500); // the killed runner's lease runs out
        InProcessCli.Result resumed = cli.run("run", "--resume", "K");
        assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isZero();
        Map<Key, Entity> atT0 = new HashMap<>();
        datastore.get(asked, ReadOption.readTime(Timestamp.ofTimeSecondsAndNanos(t0.getEpochSecond(),
                t0.getNano()))).forEachRemaining(e -> atT0.put(e.getKey(), e));
        assertThat(atT0).hasSize(200);
        assertThat(RichEntities.read(datastore, "", "Item")).as("the keys asked, as at T0").isEqualTo(atT0);
    }

    private static String[] with(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }
}
