package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.keys.KeyFormat;
import io.keyranger.support.ChildCli;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore started with relative times ({@code --as-of -Ns --until -Ms}) is resumed by its id alone: the restore
 * says, as it starts, how to resume it and the absolute moments it reads; killed with SIGKILL, it is refused when run
 * again with the same relative times (they now name other moments), and {@code run --resume ID} finishes it exactly,
 * entity by entity as the Firestore emulator's own lookups at the moments the restore printed decide. Once it is
 * done, the same undo with those moments writes nothing and names exactly the later writes (the restore's own output
 * gives the dry run that lists every one).
 */
class RestoreAsOfResumeTest {
    private static final int SEEDED = 1_500;
    private static final Duration GAP = Duration.ofSeconds(10);
    /**
     * About how long the child takes from its start to reading its times (a JVM's start, picocli, a connection):
     * the gaps between the writes leave it 5 s either way on a busy machine.
     */
    private static final Duration CHILD_START = Duration.ofSeconds(3);
    private static final Pattern MOMENTS = Pattern.compile("--job-id R --as-of (\\S+) --until (\\S+):");

    @TempDir
    Path dir;

    @Test
    void aRestoreStartedWithRelativeTimesKilledMidwayIsFinishedExactlyByRunResume() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "restore-resume");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = RichEntities.of(datastore, "Item", SEEDED);
        SharedEmulator.putAll(datastore, seeded);
        Instant seededAt = Instant.now();
        Thread.sleep(GAP.toMillis());

        Instant damageFrom = Instant.now();
        List<Key> deleted = new ArrayList<>();
        List<Entity> changed = new ArrayList<>();
        for (int i = 0; i < SEEDED; i++) {
            if (i % 10 == 0) {
                deleted.add(seeded.get(i).getKey());
            } else if (i % 10 == 5) {
                changed.add(Entity.newBuilder(seeded.get(i)).set("balance", -i).set("damaged", true).build());
            }
        }
        List<Entity> added = new ArrayList<>();
        KeyFactory keys = datastore.newKeyFactory().setKind("Item");
        for (int j = 0; j < 50; j++) {
            added.add(Entity.newBuilder(j % 2 == 0 ? keys.newKey(3_000_000_000L + j) : keys.newKey("added-" + j))
                    .set("balance", j).build());
        }
        for (int i = 0; i < deleted.size(); i += 500) {
            datastore.delete(deleted.subList(i, Math.min(deleted.size(), i + 500)).toArray(new Key[0]));
        }
        SharedEmulator.putAll(datastore, changed);
        SharedEmulator.putAll(datastore, added);
        Instant damagedAt = Instant.now();
        Thread.sleep(GAP.toMillis());

        Instant laterFrom = Instant.now();
        List<Entity> later = new ArrayList<>();
        for (int i = 0; i < changed.size(); i += 10) {
            later.add(Entity.newBuilder(changed.get(i)).set("balance", 1_000_000 + i).build());
        }
        SharedEmulator.putAll(datastore, later);
        Map<Key, Entity> beforeRestore = RichEntities.read(datastore, "", "Item");

        // back from the child's "now": the middle of each gap, as the child reads its times a moment after it starts
        Instant childNow = Instant.now().plus(CHILD_START);
        String asOf = "-" + Duration.between(seededAt.plus(GAP.dividedBy(2)), childNow).toSeconds() + "s";
        String until = "-" + Duration.between(damagedAt.plus(GAP.dividedBy(2)), childNow).toSeconds() + "s";
        List<String> restore = List.of("restore", "--kind", "Item", "--as-of", asOf, "--until", until,
                "--remove-added", "--job-id", "R");
        String moments;
        try (ChildCli child = ChildCli.start(dir, conn, List.of(with(restore, "--workers", "4", "--page-size", "50",
                "--hold-between-chunks", "6", "--lease-seconds", "2")))) { // no lock left behind
            moments = child.awaitLine("If it stops, resume it with: keyranger run --resume R", 120);
            child.awaitHeld();
            child.kill();
        }
        Matcher m = MOMENTS.matcher(moments);
        assertThat(m.find()).as(moments).isTrue();
        Instant t0 = Instant.parse(m.group(1));
        Instant t1 = Instant.parse(m.group(2));
        assertThat(t0).as("--as-of %s fell between the seeding and the damage (a slow start of the child moves it)",
                asOf).isAfter(seededAt).isBefore(damageFrom);
        assertThat(t1).as("--until %s fell between the damage and the later writes", until).isAfter(damagedAt)
                .isBefore(laterFrom);
        Map<Key, Entity> atKill = RichEntities.read(datastore, "", "Item");
        assertThat(atKill).as("killed mid-way").isNotEqualTo(beforeRestore);

        InProcessCli cli = new InProcessCli(dir, conn);
        InProcessCli.Result again = cli.run(restore.toArray(new String[0]));
        assertThat(again.exitCode()).as(again.out() + again.err()).isNotZero();
        assertThat(again.err()).as("the same relative times now name later moments").contains(
                "was started with other options", "keyranger run --resume R").doesNotContain("\tat ");
        assertThat(RichEntities.read(datastore, "", "Item")).as("nothing written").isEqualTo(atKill);

        InProcessCli.Result resumed = cli.run("run", "--resume", "R");
        assertThat(resumed.exitCode()).as("done, later writes left alone, as restore exits: " + resumed.out()
                + resumed.err()).isEqualTo(RevertCommand.EXIT_CONFLICTS);
        assertThat(resumed.err()).contains("written again after --until kept their later values");

        // the undo decided by the emulator's own answers at the moments printed: an entity as at T1 goes back to T0
        Map<Key, Entity> then = RichEntities.readAt(datastore, "", "Item", t0);
        Map<Key, Entity> atT1 = RichEntities.readAt(datastore, "", "Item", t1);
        Map<Key, Entity> expected = new HashMap<>();
        Set<Key> all = new HashSet<>(then.keySet());
        all.addAll(atT1.keySet());
        all.addAll(beforeRestore.keySet());
        for (Key key : all) {
            Entity now = beforeRestore.get(key);
            Entity result = Objects.equals(now, atT1.get(key)) ? then.get(key) : now;
            if (result != null) {
                expected.put(key, result);
            }
        }
        assertThat(expected).hasSize(SEEDED);
        later.forEach(e -> assertThat(expected).as("a later write kept").containsEntry(e.getKey(), e));
        Map<Key, Entity> restored = RichEntities.read(datastore, "", "Item");
        assertThat(restored.keySet()).isEqualTo(expected.keySet());
        expected.forEach((key, entity) -> assertThat(restored.get(key)).as(KeyFormat.format(key)).isEqualTo(entity));
        assertThat(ShardedCounter.existing(datastore, "job:R").totals()).as("each key decided once")
                .containsEntry("read", (long) SEEDED + 50).containsEntry("written", 285L)
                .containsEntry("deleted", 50L).containsEntry("skipped: written again after --until", 15L);

        // once restored, the same undo (a new job, with the moments printed) writes nothing and names exactly the
        // later writes, with the command that lists every one; that dry run names those 15 and no other
        List<String> absolute = List.of("restore", "--kind", "Item", "--as-of", t0.toString(), "--until",
                t1.toString(), "--remove-added");
        InProcessCli.Result again2 = cli.run(with(absolute, "--job-id", "R2"));
        assertThat(again2.exitCode()).as(again2.out() + again2.err()).isEqualTo(RevertCommand.EXIT_CONFLICTS);
        assertThat(again2.err()).contains("15 entities written again after --until kept their later values",
                "keyranger restore --kind Item --as-of " + t0 + " --until " + t1 + " --remove-added --emulator-host "
                + conn.emulatorHost() + " --project " + conn.projectId() + " --dry-run");
        assertThat(RichEntities.read(datastore, "", "Item")).as("nothing more to write").isEqualTo(restored);
        assertThat(ShardedCounter.existing(datastore, "job:R2").totals()).containsEntry("written", 0L)
                .containsEntry("already as at the time restored", (long) SEEDED + 50 - 15)
                .containsEntry("skipped: written again after --until", 15L);
        InProcessCli.Result named = cli.run(with(absolute, "--dry-run"));
        assertThat(named.exitCode()).as(named.out() + named.err()).isZero();
        assertThat(named.out().lines().filter(l -> l.contains("written again after --until:"))
                .filter(l -> l.contains("would leave"))).as(named.out()).hasSize(15);
        for (Entity e : later) {
            assertThat(named.out()).contains("would leave " + KeyFormat.format(e.getKey())
                    + ": written again after --until");
        }
    }

    private static String[] with(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }
}
