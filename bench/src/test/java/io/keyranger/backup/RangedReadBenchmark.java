package io.keyranger.backup;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.Session;
import io.keyranger.launch.DiffRequest;
import io.keyranger.launch.Diffs;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.formats.managed.ManagedExportWriter;
import io.keyranger.model.ModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How long the "before" side of {@code diff --as-of} takes to read a kind on the production model (20 ms median
 * latency, calls served concurrently): by one query, as it was read until issue 65, against over planned ranges,
 * {@code parallel} at once and in key order ({@link OrderedRangeRead}). On a model that keeps versions
 * ({@code readsPast}) both read as of a moment after seeding, 1% of the kind changed and 1% deleted since, and the
 * whole comparison ({@code diff --as-of}) is timed too; on one that keeps none both read the live kind, the same
 * calls without a read time. The live side of {@code diff --export} (an export of the seeded kind, 1% changed, 1%
 * deleted and 1% added since): the live kind's keys read by one keys-only query against over planned ranges
 * ({@link OrderedRangeRead#each}), and the whole comparison at {@code --parallel} 1, 8 and 16.
 * {@code -Dentities} (default 200,000), {@code -Drounds} (default 3), {@code -Dparallels} (how many ranges the past
 * is read over at once, default 8 and {@link DiffRequest#PARALLEL}, the default of {@code diff --parallel}).
 * Not part of {@code mvn verify}: {@code mvn -B -o verify -pl :keyranger,:keyranger-bench
 * -Dtest=RangedReadBenchmark -Dsurefire.failIfNoSpecifiedTests=false}. Prints figures; checks that each read hands
 * on every key once, in the same order; asserts nothing about speed.
 */
class RangedReadBenchmark {
    private static final String KIND = "Account";

    @Test
    void oneQueryAgainstRangesOnTheProductionModel() throws Exception {
        int n = Integer.getInteger("entities", 200_000);
        int[] parallels = Arrays.stream(System.getProperty("parallels", "8," + DiffRequest.PARALLEL).split(","))
                .mapToInt(p -> Integer.parseInt(p.trim())).toArray();
        try (ModelServer server = ModelServer.start(0, ModelServer.Options.DEFAULT)) {
            ConnectionSpec conn = ConnectionSpec.model(server.hostPort(), "bench");
            Datastore datastore = DatastoreConnector.connect(conn);
            server.quiet(true);
            List<Entity> batch = new ArrayList<>();
            Path dir = Files.createTempDirectory("ranged-read-bench");
            ManagedExport export;
            try (ManagedExportWriter writer = ManagedExportWriter.create(dir.resolve("export"))) {
                for (int i = 0; i < n; i++) {
                    Key key = i % 2 == 0 ? datastore.newKeyFactory().setKind(KIND).newKey("a-" + i)
                            : datastore.newKeyFactory().setKind(KIND).newKey(1_000_000L + i);
                    Entity entity = Entity.newBuilder(key).set("balance", (long) i).set("tier", i % 3 == 0 ? "pro"
                            : "free").build();
                    batch.add(entity);
                    writer.write(entity);
                    if (batch.size() == 500 || i == n - 1) {
                        datastore.put(batch.toArray(new Entity[0]));
                        batch.clear();
                    }
                }
                writer.finish();
                export = ManagedExport.open(writer.root());
            }
            Session session = Session.open(conn);
            Session reading = session;
            if (conn.server().readsPast()) {
                Thread.sleep(50);
                reading = ReadWindow.open(session, Instant.now().truncatedTo(ChronoUnit.MICROS).toString(),
                        note -> { });
                Thread.sleep(50);
                List<Key> deleted = new ArrayList<>();
                List<Entity> changed = new ArrayList<>();
                for (int i = 0; i + 25 < n; i += 50) {
                    deleted.add(datastore.newKeyFactory().setKind(KIND).newKey("a-" + i)); // i is even: a name
                    changed.add(Entity.newBuilder(datastore.get(datastore.newKeyFactory().setKind(KIND)
                            .newKey(1_000_000L + i + 25))).set("balance", -1L).build()); // odd: an id
                    changed.add(Entity.newBuilder(datastore.newKeyFactory().setKind(KIND).newKey("b-" + i))
                            .set("balance", 0L).build()); // added since the export
                }
                for (int from = 0; from < changed.size(); from += 500) {
                    datastore.put(changed.subList(from, Math.min(changed.size(), from + 500)).toArray(new Entity[0]));
                }
                for (int from = 0; from < deleted.size(); from += 500) {
                    datastore.delete(deleted.subList(from, Math.min(deleted.size(), from + 500))
                            .toArray(new Key[0]));
                }
            }
            server.quiet(false);
            List<Key> expected = null;
            for (int round = 1; round <= Integer.getInteger("rounds", 3); round++) {
                long calls = server.calls();
                long t = System.nanoTime();
                List<Key> one = new ArrayList<>(n);
                QueryResults<Entity> all = reading.datastore().run(Query.newEntityQueryBuilder().setKind(KIND)
                        .build());
                all.forEachRemaining(e -> one.add(e.getKey()));
                report(round, "one query", one.size(), t, server.calls() - calls);
                expected = expected == null ? one : expected;
                check(expected, one);
                for (int parallel : parallels) {
                    calls = server.calls();
                    t = System.nanoTime();
                    List<Key> ranged = new ArrayList<>(n);
                    int ranges;
                    try (OrderedRangeRead<Entity> read = OrderedRangeRead.entities(reading.datastore(),
                            reading.order(), "", KIND, parallel, Cancellation.NEVER)) {
                        read.forEachRemaining(e -> ranged.add(e.getKey()));
                        ranges = read.ranges();
                    }
                    report(round, ranges + " ranges, " + parallel + " at once", ranged.size(), t,
                            server.calls() - calls);
                    check(expected, ranged);
                }
                // the live side of diff --export: the live kind's keys, for the entities added since the export
                calls = server.calls();
                t = System.nanoTime();
                List<Key> liveKeys = new ArrayList<>(n);
                session.datastore().run(Query.newKeyQueryBuilder().setKind(KIND).build())
                        .forEachRemaining(liveKeys::add);
                report(round, "live keys, one query", liveKeys.size(), t, server.calls() - calls);
                for (int parallel : new int[] {8, 16}) {
                    calls = server.calls();
                    t = System.nanoTime();
                    List<Key> ranged = new ArrayList<>(n);
                    int ranges;
                    try (OrderedRangeRead<Key> read = OrderedRangeRead.each(session.datastore(), session.order(), "",
                            KIND, parallel, Cancellation.NEVER, false, Key.class::cast)) {
                        read.forEachRemaining(ranged::add);
                        ranges = read.ranges();
                    }
                    report(round, "live keys, " + ranges + " ranges, " + parallel + " at once", ranged.size(), t,
                            server.calls() - calls);
                    check(liveKeys, ranged);
                }
                for (int parallel : new int[] {1, 8, 16}) {
                    calls = server.calls();
                    t = System.nanoTime();
                    ExportDiff.Result r = new Diffs(session).run(DiffRequest.of(new DiffRequest.Export(export), "",
                            KIND).sized(DiffRequest.PAGE_SIZE, parallel), x -> { }, Cancellation.NEVER);
                    report(round, "diff --export, --parallel " + parallel + " (same " + r.same() + ", changed "
                            + r.changed() + ", removed " + r.removed() + ", added " + r.added() + ")",
                            (int) r.compared(), t, server.calls() - calls);
                }
                if (reading.past()) {
                    for (int parallel : new int[] {8, 16}) {
                        calls = server.calls();
                        t = System.nanoTime();
                        ExportDiff.Result r = new Diffs(session).run(DiffRequest.of(new DiffRequest.Past(
                                reading.asOf()), "", KIND).sized(DiffRequest.PAGE_SIZE, parallel), x -> { },
                                Cancellation.NEVER);
                        report(round, "diff --as-of, --parallel " + parallel + " (same " + r.same() + ", changed "
                                + r.changed() + ", removed " + r.removed() + ")", (int) r.compared(), t,
                                server.calls() - calls);
                    }
                }
            }
        }
    }

    private static void report(int round, String how, int read, long started, long calls) {
        double s = (System.nanoTime() - started) / 1e9;
        System.out.printf("round %d, %s: %,d entities in %.2f s (%,.0f entities/s), %,d calls%n", round, how, read, s,
                read / s, calls);
    }

    private static void check(List<Key> expected, List<Key> read) {
        if (!expected.equals(read)) {
            throw new AssertionError("read " + read.size() + " keys, not the " + expected.size() + " of one query in "
                    + "its order");
        }
    }
}
