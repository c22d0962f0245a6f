package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.ReadOption;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RawEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kinds}, {@code entity get} and {@code preview} (with and without {@code --gql}) given {@code --as-of T} answer
 * what the Firestore emulator held at T, checked against the emulator's own reads at T, write nothing, and without it
 * answer the present; the legacy emulator, a time outside the window and a time that is not one are refused in a line.
 */
class AsOfBrowsingCliTest {
    private static final int SEEDED = 60;
    private static final String KNOWN = "_KeyRangerKnownKind";

    @TempDir
    Path dir;

    @Test
    void browsingCommandsReadTheDatabaseAsItWasAndWriteNothing() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "asof-cli");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seed = new ArrayList<>();
        for (int i = 1; i <= SEEDED; i++) {
            seed.add(Entity.newBuilder(key(datastore, "W", i)).set("n", i).set("tier", i % 2 == 0 ? "even" : "odd")
                    .build());
        }
        seed.add(Entity.newBuilder(key(datastore, "Gone", 1)).set("n", 1).build());
        SharedEmulator.putAll(datastore, seed);
        InProcessCli cli = new InProcessCli(dir, conn);
        ok(cli.run("kinds", "--kind", "W")); // known from now on (this server cannot list kinds)
        Thread.sleep(20);
        Instant t = Instant.now().truncatedTo(ChronoUnit.MICROS); // the server reads whole microseconds
        Thread.sleep(20);

        // damage after T: 10 deleted (all odd/even mixed), 10 changed (new tier, new property), 15 added, Gone deleted
        for (int i = 1; i <= 10; i++) {
            datastore.delete(key(datastore, "W", i));
        }
        for (int i = 11; i <= 20; i++) {
            datastore.put(Entity.newBuilder(key(datastore, "W", i)).set("n", -i).set("tier", "odd")
                    .set("extra", true).build());
        }
        for (int i = SEEDED + 1; i <= SEEDED + 15; i++) {
            datastore.put(Entity.newBuilder(key(datastore, "W", i)).set("n", i).set("tier", "odd").build());
        }
        datastore.delete(key(datastore, "Gone", 1));
        Instant goneSince = Instant.now(); // the delete has committed: a read as of now finds nothing
        Map<String, JsonNode> bookkeeping = RawEntities.of(conn, "", KNOWN);
        ReadOption atT = ReadOption.readTime(Timestamp.ofTimeSecondsAndNanos(t.getEpochSecond(), t.getNano()));
        String asOf = t.toString();

        // entity get: a deleted, a changed and an added entity, as of T and now
        for (int id : new int[] {5, 15, SEEDED + 5}) {
            Entity then = datastore.get(key(datastore, "W", id), atT);
            Entity now = datastore.get(key(datastore, "W", id));
            InProcessCli.Result past = cli.run("entity", "get", "KEY(W, " + id + ")", "--as-of", asOf);
            InProcessCli.Result present = cli.run("entity", "get", "KEY(W, " + id + ")");
            if (then == null) {
                refused(past, "No entity W:" + id + " as of " + asOf);
            } else {
                assertThat(ok(past).out().trim()).isEqualTo(EntityCodec.encode(then).toPrettyString());
                assertThat(past.err()).contains("Reading the database as of " + asOf);
            }
            if (now == null) {
                refused(present, "No entity W:" + id + ".");
            } else {
                assertThat(ok(present).out().trim()).isEqualTo(EntityCodec.encode(now).toPrettyString());
            }
        }

        // kinds: counts and properties as of T, and now
        long countThen = count(datastore, Query.newKeyQueryBuilder().setKind("W").build(), atT);
        long countNow = count(datastore, Query.newKeyQueryBuilder().setKind("W").build());
        assertThat(countThen).isEqualTo(SEEDED);
        assertThat(countNow).isEqualTo(SEEDED + 5);
        String kindsThen = ok(cli.run("kinds", "--counts", "--properties", "--as-of", asOf)).out();
        assertThat(kindsThen).containsPattern("\\(default\\)\\s+W\\s+" + countThen + "\\s")
                .contains(".n: integer").contains(".tier: string").doesNotContain(".extra");
        String kindsNow = ok(cli.run("kinds", "--counts", "--properties")).out();
        assertThat(kindsNow).containsPattern("\\(default\\)\\s+W\\s+" + countNow + "\\s").contains(".extra: boolean");
        // a kind only the past holds, never named before: found as of T (and not recorded, since the past is read-only)
        assertThat(ok(cli.run("kinds", "--kind", "Gone", "--counts", "--as-of", asOf)).out())
                .containsPattern("\\(default\\)\\s+Gone\\s+1\\s");
        // the Firestore emulator lists no namespaces: the default one is all that was searched, and it says so
        refused(cli.run("kinds", "--kind", "Gone"), "Kind 'Gone' was not found in the default namespace.");

        // preview, of the kind and of a GQL query, with exact counts, as of T and now
        long oddThen = count(datastore, Query.newKeyQueryBuilder().setKind("W")
                .setFilter(PropertyFilter.eq("tier", "odd")).build(), atT);
        long oddNow = count(datastore, Query.newKeyQueryBuilder().setKind("W")
                .setFilter(PropertyFilter.eq("tier", "odd")).build());
        assertThat(oddThen).isEqualTo(SEEDED / 2);
        assertThat(oddNow).isNotEqualTo(oddThen);
        assertThat(exactTotal(ok(cli.run("preview", "--kind", "W", "--shards", "3", "--exact", "--as-of", asOf))))
                .isEqualTo(countThen);
        assertThat(exactTotal(ok(cli.run("preview", "--kind", "W", "--shards", "3", "--exact")))).isEqualTo(countNow);
        String gql = "SELECT * FROM W WHERE tier = 'odd'";
        assertThat(exactTotal(ok(cli.run("preview", "--gql", gql, "--shards", "3", "--exact", "--as-of", asOf))))
                .isEqualTo(oddThen);
        assertThat(exactTotal(ok(cli.run("preview", "--gql", gql, "--shards", "3", "--exact")))).isEqualTo(oddNow);
        refused(cli.run("preview", "--kind", "Gone", "--as-of", goneSince.toString()), "Kind 'Gone' was not found in the default namespace"
                + " as of ");

        assertThat(RawEntities.of(conn, "", KNOWN)).as("reading the past recorded no kind").isEqualTo(bookkeeping);
    }

    @Test
    void aKindThatExistedAtTButWasFirstNamedAfterTIsListedAsOfT() throws Exception {
        // this server cannot list kinds: KeyRanger's registry of known kinds is what is now, each checked as of T
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "asof-cli");
        Datastore datastore = SharedEmulator.connect(conn);
        datastore.put(Entity.newBuilder(key(datastore, "Early", 1)).set("n", 1).build());
        Thread.sleep(20);
        String asOf = Instant.now().truncatedTo(ChronoUnit.MICROS).toString();
        Thread.sleep(20);
        datastore.put(Entity.newBuilder(key(datastore, "Late", 1)).set("n", 1).build());
        InProcessCli cli = new InProcessCli(dir, conn);
        ok(cli.run("kinds", "--kind", "Early")); // named (and recorded) only now, after T
        ok(cli.run("kinds", "--kind", "Late"));
        assertThat(ok(cli.run("kinds")).out()).containsPattern("\\(default\\)\\s+Early\\n")
                .containsPattern("\\(default\\)\\s+Late\\n");
        String then = ok(cli.run("kinds", "--counts", "--as-of", asOf)).out();
        assertThat(then).containsPattern("\\(default\\)\\s+Early\\s+1\\s").doesNotContain("Late");
    }

    @Test
    void theLegacyEmulatorABadTimeAndATimeOutsideTheWindowAreRefusedInALine() {
        ConnectionSpec legacy = SharedEmulator.freshProject(ServerType.EMULATOR, "asof-cli");
        Datastore datastore = SharedEmulator.connect(legacy);
        datastore.put(Entity.newBuilder(key(datastore, "W", 1)).set("n", 1).build());
        InProcessCli onLegacy = new InProcessCli(dir, legacy);
        for (String[] command : commands()) {
            refused(onLegacy.run(with(command, "--as-of", "-1m")), ServerType.NO_PAST);
        }

        InProcessCli onFirestore = new InProcessCli(dir,
                SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "asof-cli"));
        for (String[] command : commands()) {
            InProcessCli.Result old = onFirestore.run(with(command, "--as-of", "-2h"));
            refused(old, "older than the database keeps");
            assertThat(old.err()).contains("can be read as of any moment from").contains("the Firestore emulator "
                    + "drops an entity's old version once the entity is written again about 300 s after it was "
                    + "replaced, so KeyRanger reads only moments of the last ").doesNotContain("recovery");
            refused(onFirestore.run(with(command, "--as-of", "yesterday")), "is not a time");
            assertThat(ok(onFirestore.run(with(command, "--help"))).out()).contains("--as-of=TIME");
        }
    }

    @Test
    void asOfAndAnExportAreRefusedTogetherInTheSameWords() {
        InProcessCli cli = new InProcessCli(dir, SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "asof-cli"));
        for (String[] command : List.of(new String[] {"kinds"}, new String[] {"entity", "get", "KEY(W, 1)"})) {
            refused(cli.run(with(command, "--as-of", "-1m", "--export", dir.toString())), "--as-of reads the database"
                    + " as it was; --export reads an export: give one of them.");
        }
    }

    private static List<String[]> commands() {
        return List.of(new String[] {"kinds"}, new String[] {"entity", "get", "KEY(W, 1)"},
                new String[] {"preview", "--kind", "W"}, new String[] {"preview", "--gql", "SELECT * FROM W"});
    }

    private static String[] with(String[] command, String... more) {
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }

    private static Key key(Datastore datastore, String kind, long id) {
        return datastore.newKeyFactory().setKind(kind).newKey(id);
    }

    private static long count(Datastore datastore, Query<Key> query, ReadOption... options) {
        long n = 0;
        var results = datastore.run(query, options);
        while (results.hasNext()) {
            results.next();
            n++;
        }
        return n;
    }

    /** The sum of preview's EXACT column. */
    private static long exactTotal(InProcessCli.Result preview) {
        Matcher row = Pattern.compile("(?m)^\\s*\\d+\\s+.*\\s(\\d+)\\s+(\\d+)$").matcher(preview.out());
        long total = 0;
        int rows = 0;
        while (row.find()) {
            total += Long.parseLong(row.group(2));
            rows++;
        }
        assertThat(rows).as(preview.out()).isPositive();
        return total;
    }

    private static InProcessCli.Result ok(InProcessCli.Result result) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        clean(result);
        return result;
    }

    private static void refused(InProcessCli.Result result, String says) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isNotZero();
        assertThat(result.err()).contains(says);
        clean(result);
    }

    private static void clean(InProcessCli.Result result) {
        assertThat(result.out() + result.err()).doesNotContain("unexpected error").doesNotContain("Exception")
                .doesNotContain("\tat ");
    }
}
