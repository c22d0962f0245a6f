package io.keyranger.backup;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.Session;
import io.keyranger.model.ModelServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How long the "before" side of {@code diff --as-of} takes to read a kind on the production model (20 ms median
 * latency, calls served concurrently): by one query, as it was read until issue 65, against over planned ranges,
 * {@code parallel} at once and in key order ({@link OrderedRangeRead}). The model keeps no versions yet, so both read
 * the live kind: the reads are the same calls a read as of a moment makes. {@code -Dentities} (default 200,000).
 * Not part of {@code mvn verify}: {@code mvn -B -o verify -pl :keyranger,:keyranger-bench
 * -Dtest=RangedReadBenchmark -Dsurefire.failIfNoSpecifiedTests=false}. Prints figures; checks that each read hands
 * on every key once, in the same order; asserts nothing about speed.
 */
class RangedReadBenchmark {
    private static final String KIND = "Account";

    @Test
    void oneQueryAgainstRangesOnTheProductionModel() throws Exception {
        int n = Integer.getInteger("entities", 200_000);
        try (ModelServer server = ModelServer.start(0, ModelServer.Options.DEFAULT)) {
            ConnectionSpec conn = ConnectionSpec.model(server.hostPort(), "bench");
            Datastore datastore = DatastoreConnector.connect(conn);
            server.quiet(true);
            List<Entity> batch = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Key key = i % 2 == 0 ? datastore.newKeyFactory().setKind(KIND).newKey("a-" + i)
                        : datastore.newKeyFactory().setKind(KIND).newKey(1_000_000L + i);
                batch.add(Entity.newBuilder(key).set("balance", (long) i).set("tier", i % 3 == 0 ? "pro" : "free")
                        .build());
                if (batch.size() == 500 || i == n - 1) {
                    datastore.put(batch.toArray(new Entity[0]));
                    batch.clear();
                }
            }
            server.quiet(false);
            Session session = Session.open(conn);
            List<Key> expected = null;
            for (int round = 1; round <= 3; round++) {
                long calls = server.calls();
                long t = System.nanoTime();
                List<Key> one = new ArrayList<>(n);
                QueryResults<Entity> all = session.datastore().run(Query.newEntityQueryBuilder().setKind(KIND)
                        .build());
                all.forEachRemaining(e -> one.add(e.getKey()));
                report(round, "one query", one.size(), t, server.calls() - calls);
                expected = expected == null ? one : expected;
                check(expected, one);
                for (int parallel : new int[] {8, 16}) {
                    calls = server.calls();
                    t = System.nanoTime();
                    List<Key> ranged = new ArrayList<>(n);
                    int ranges;
                    try (OrderedRangeRead read = new OrderedRangeRead(session.datastore(), session.order(), "",
                            KIND, parallel, Cancellation.NEVER)) {
                        read.forEachRemaining(e -> ranged.add(e.getKey()));
                        ranges = read.ranges();
                    }
                    report(round, ranges + " ranges, " + parallel + " at once", ranged.size(), t,
                            server.calls() - calls);
                    check(expected, ranged);
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
