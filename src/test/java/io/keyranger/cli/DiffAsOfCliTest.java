package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.ReadOption;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.query.Gql;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code diff --as-of T0} on the Firestore emulator in Datastore mode: 1,000 entities (ids and names) seeded, T0
 * noted, then 100 deleted, 100 changed and 20 added. The diff's key lists are checked against the keys damaged and
 * against the emulator's own answers (a query at read time T0, and lookups then and now), whole and narrowed by a
 * query and by a list of keys; a stopped diff resumes at the same moment; bad uses are refused plainly.
 */
class DiffAsOfCliTest {
    private static final String KIND = "Ledger";
    private static final String GOLD = "SELECT * FROM " + KIND + " WHERE tier = 'gold'";

    @TempDir
    static Path dir;

    private static ConnectionSpec conn;
    private static Datastore datastore;
    private static InProcessCli cli;
    private static Instant t0;
    private static final Set<Key> DELETED = new HashSet<>();
    private static final Set<Key> CHANGED = new HashSet<>();
    private static final Set<Key> ADDED = new HashSet<>();
    private static final List<Key> UNTOUCHED = new ArrayList<>();

    @BeforeAll
    static void seedNoteT0AndDamage() throws Exception {
        conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "diff-asof");
        datastore = SharedEmulator.connect(conn);
        cli = new InProcessCli(dir, conn);
        KeyFactory keys = datastore.newKeyFactory().setKind(KIND);
        List<Entity> seed = new ArrayList<>();
        for (int i = 1; i <= 1_000; i++) {
            Key key = i % 2 == 0 ? keys.newKey(i) : keys.newKey("n" + i);
            seed.add(Entity.newBuilder(key).set("n", i).set("tier", i % 3 == 1 ? "gold" : "basic").build());
        }
        SharedEmulator.putAll(datastore, seed);
        Thread.sleep(50);
        t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(50);
        List<Key> delete = new ArrayList<>();
        List<Entity> change = new ArrayList<>();
        for (int i = 0; i < seed.size(); i++) {
            Entity e = seed.get(i);
            if (i % 10 == 3) {
                delete.add(e.getKey());
            } else if (i % 10 == 6) {
                // half of the changed cross the query's condition (gold to basic, basic to gold)
                boolean flip = i % 20 == 6;
                String tier = e.getString("tier");
                change.add(Entity.newBuilder(e).set("n", -e.getLong("n"))
                        .set("tier", flip ? (tier.equals("gold") ? "basic" : "gold") : tier).build());
            } else {
                UNTOUCHED.add(e.getKey());
            }
        }
        datastore.delete(delete.toArray(new Key[0]));
        SharedEmulator.putAll(datastore, change);
        List<Entity> add = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            add.add(Entity.newBuilder(i % 2 == 0 ? keys.newKey(10_000 + i) : keys.newKey("new" + i))
                    .set("n", i).set("tier", i % 2 == 0 ? "gold" : "basic").build());
        }
        SharedEmulator.putAll(datastore, add);
        DELETED.addAll(delete);
        change.forEach(e -> CHANGED.add(e.getKey()));
        add.forEach(e -> ADDED.add(e.getKey()));
        assertThat(DELETED).hasSize(100);
        assertThat(CHANGED).hasSize(100);
        assertThat(ADDED).hasSize(20);
    }

    @Test
    void listsExactlyTheRemovedChangedAndAddedSinceT0() {
        Path out = dir.resolve("all");
        InProcessCli.Result diff = cli.run("diff", "--as-of", t0.toString(), "--kind", KIND,
                "--keys-out", out.toString()).ok();
        assertThat(diff.out()).contains("1,000 as of " + t0 + " compared with live data")
                .containsPattern("same\\s+800\\b").containsPattern("changed\\s+100\\b")
                .containsPattern("removed\\s+100\\b").containsPattern("added\\s+20\\b")
                .contains("restore --as-of " + t0 + " --keys " + out.resolve("removed.keys"));
        assertThat(diff.err()).contains("Reading the database as of " + t0).contains("Compared 1,000 entities");
        assertThat(keys(out, "removed.keys")).isEqualTo(DELETED);
        assertThat(keys(out, "changed.keys")).isEqualTo(CHANGED);
        assertThat(keys(out, "added.keys")).isEqualTo(ADDED);

        // the emulator's own answers: the kind at read time T0 against the kind now
        Map<Key, Entity> then = all(Query.newEntityQueryBuilder().setKind(KIND).build(), true);
        Map<Key, Entity> now = all(Query.newEntityQueryBuilder().setKind(KIND).build(), false);
        assertThat(then).hasSize(1_000);
        assertThat(keys(out, "removed.keys")).isEqualTo(minus(then.keySet(), now.keySet()));
        assertThat(keys(out, "added.keys")).isEqualTo(minus(now.keySet(), then.keySet()));
        assertThat(keys(out, "changed.keys")).isEqualTo(then.keySet().stream().filter(k -> now.containsKey(k)
                && !now.get(k).getProperties().equals(then.get(k).getProperties())).collect(Collectors.toSet()));

        Key one = CHANGED.iterator().next();
        InProcessCli.Result side = cli.run("diff", "--as-of", t0.toString(), "--kind", KIND, "--key",
                Gql.keyLiteral(one)).ok();
        assertThat(side.out()).contains("changed since " + t0).contains("AS OF")
                .containsPattern("\\*\\s+n\\s+" + then.get(one).getLong("n") + "\\s+" + now.get(one).getLong("n"));
    }

    @Test
    void aQueryNarrowsEachSideAsItNarrowsAnExport() {
        Path out = dir.resolve("gold");
        InProcessCli.Result diff = cli.run("diff", "--as-of", t0.toString(), "--gql", GOLD,
                "--keys-out", out.toString()).ok();

        // the emulator's own query for gold entities, at T0 and now; lookups of every entity then and now
        Set<Key> goldThen = all(Query.newGqlQueryBuilder(Query.ResultType.ENTITY, GOLD).setAllowLiteral(true).build(), true).keySet();
        Set<Key> goldNow = all(Query.newGqlQueryBuilder(Query.ResultType.ENTITY, GOLD).setAllowLiteral(true).build(), false).keySet();
        Map<Key, Entity> then = all(Query.newEntityQueryBuilder().setKind(KIND).build(), true);
        Map<Key, Entity> now = all(Query.newEntityQueryBuilder().setKind(KIND).build(), false);
        Set<Key> removed = goldThen.stream().filter(k -> !now.containsKey(k)).collect(Collectors.toSet());
        Set<Key> changed = goldThen.stream().filter(k -> now.containsKey(k)
                && !now.get(k).getProperties().equals(then.get(k).getProperties())).collect(Collectors.toSet());
        Set<Key> added = goldNow.stream().filter(k -> !then.containsKey(k)).collect(Collectors.toSet());
        Set<Key> entered = goldNow.stream().filter(k -> then.containsKey(k) && !goldThen.contains(k))
                .collect(Collectors.toSet());
        long left = changed.stream().filter(k -> !goldNow.contains(k)).count();
        assertThat(entered).isNotEmpty();
        assertThat(left).isPositive();
        assertThat(added).isNotEmpty().isSubsetOf(ADDED);
        assertThat(removed).isNotEmpty().isSubsetOf(DELETED);

        assertThat(keys(out, "removed.keys")).isEqualTo(removed);
        assertThat(keys(out, "changed.keys")).isEqualTo(changed);
        assertThat(keys(out, "added.keys")).isEqualTo(added);
        assertThat(keys(out, "entered.keys")).isEqualTo(entered);
        assertThat(diff.out()).as("those that entered the query count as compared and changed")
                .contains(goldThen.size() + entered.size() + " as of " + t0 + " compared")
                .containsPattern("changed\\s+" + (changed.size() + entered.size()) + "\\b")
                .containsPattern("removed\\s+" + removed.size() + "\\b")
                .containsPattern("added\\s+" + added.size() + "\\b")
                .contains(entered.size() + " match it now and did not as of " + t0)
                .contains(left + " matched it as of " + t0 + " and do not now");
    }

    @Test
    void aListOfKeysNarrowsTheComparison() throws Exception {
        List<Key> asked = new ArrayList<>();
        DELETED.stream().limit(30).forEach(asked::add);
        CHANGED.stream().limit(20).forEach(asked::add);
        UNTOUCHED.stream().limit(40).forEach(asked::add);
        ADDED.stream().limit(5).forEach(asked::add);
        Key never = datastore.newKeyFactory().setKind(KIND).newKey("never-written");
        asked.add(never);
        Path file = dir.resolve("asked.keys");
        KeysFile.write(file, asked);
        Path out = dir.resolve("asked");

        InProcessCli.Result diff = cli.run("diff", "--as-of", t0.toString(), "--kind", KIND,
                "--keys", file.toString(), "--keys-out", out.toString()).ok();
        assertThat(diff.out()).contains("90 as of " + t0 + " compared").containsPattern("same\\s+40\\b")
                .containsPattern("changed\\s+20\\b").containsPattern("removed\\s+30\\b")
                .containsPattern("added\\s+5\\b");
        assertThat(keys(out, "removed.keys")).isEqualTo(Set.copyOf(asked.subList(0, 30)));
        assertThat(keys(out, "changed.keys")).isEqualTo(Set.copyOf(asked.subList(30, 50)));
        assertThat(keys(out, "added.keys")).isEqualTo(Set.copyOf(asked.subList(90, 95)));
    }

    @Test
    void aStoppedDiffGoesOnAtTheSameMomentOnly() {
        Path out = dir.resolve("resumed");
        InProcessCli.Result stopped = cli.run("diff", "--as-of", t0.toString(), "--kind", KIND, "--page-size", "100",
                "--parallel", "1", "--keys-out", out.toString(), "--stop-after", "300");
        assertThat(stopped.exitCode()).as(stopped.out() + stopped.err()).isEqualTo(RunCommand.EXIT_CANCELLED);
        assertThat(stopped.err()).contains("--as-of " + t0 + ", and --resume");

        InProcessCli.Result otherMoment = cli.run("diff", "--as-of", t0.plusMillis(1).toString(), "--kind", KIND,
                "--keys-out", out.toString(), "--resume");
        assertThat(otherMoment.exitCode()).as(otherMoment.out() + otherMoment.err()).isEqualTo(1);
        assertThat(otherMoment.err()).contains(t0.toString()).contains("Resume with the same options")
                .doesNotContain("\tat ");

        cli.run("diff", "--as-of", t0.toString(), "--kind", KIND, "--keys-out", out.toString(), "--resume").ok();
        assertThat(keys(out, "removed.keys")).isEqualTo(DELETED);
        assertThat(keys(out, "changed.keys")).isEqualTo(CHANGED);
        assertThat(keys(out, "added.keys")).isEqualTo(ADDED);
        assertThat(lines(out, "removed.keys")).as("no key listed twice").isEqualTo(DELETED.size());
    }

    @Test
    void badUsesAreRefusedPlainly() {
        cli.run("diff", "--as-of", "-1m", "--export", dir.toString(), "--kind", KIND).refused("both were given");
        cli.run("diff", "--kind", KIND).refused("neither was given");
        cli.run("diff", "--as-of", "yesterday", "--kind", KIND).refused("'yesterday' is not a time");
        cli.run("diff", "--as-of", "-2h", "--kind", KIND).refused("older than the database keeps");
        cli.run("diff", "--as-of", "2099-01-01T00:00:00Z", "--kind", KIND).refused("is in the future");
        cli.run("restore", "--kind", KIND, "--dry-run").refused("Restore from one source");

        ConnectionSpec legacy = SharedEmulator.freshProject(ServerType.EMULATOR, "diff-asof-legacy");
        new InProcessCli(dir, legacy).run("diff", "--as-of", "-1m", "--kind", KIND).refused(ServerType.NO_PAST);
    }



    /** Every entity a query answers, at T0 ({@code atT0}) or now, straight from the emulator. */
    private static Map<Key, Entity> all(Query<Entity> query, boolean atT0) {
        List<Entity> found = new ArrayList<>();
        (atT0 ? datastore.run(query, ReadOption.readTime(Timestamp.ofTimeSecondsAndNanos(t0.getEpochSecond(),
                t0.getNano()))) : datastore.run(query)).forEachRemaining(found::add);
        return found.stream().collect(Collectors.toMap(Entity::getKey, Function.identity()));
    }

    private static Set<Key> keys(Path folder, String file) {
        return KeysFile.read(folder.resolve(file), conn.projectId(), "");
    }

    private static long lines(Path folder, String file) {
        try {
            return Files.readAllLines(folder.resolve(file)).size();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<Key> minus(Set<Key> a, Set<Key> b) {
        return a.stream().filter(k -> !b.contains(k)).collect(Collectors.toSet());
    }
}
