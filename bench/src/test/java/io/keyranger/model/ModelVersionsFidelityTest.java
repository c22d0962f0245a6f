package io.keyranger.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.AggregationQuery;
import com.google.cloud.datastore.AggregationResult;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityQuery;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.ReadOption;
import com.google.cloud.datastore.StructuredQuery.CompositeFilter;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.aggregation.Aggregation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.support.SharedEmulator;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The model's versions against the Firestore emulator in Datastore mode, which keeps versions too: the same writes go
 * to both, and the same reads as of moments between them (lookups of an entity changed, deleted, created later,
 * deleted and created again; queries over all of a kind, key ranges paged by cursor, an equality filter, a descending
 * order; COUNT aggregations) must give the same answers on both, as must live reads and reads in a transaction. A read
 * in the future or older than the window (the emulator keeps 7 days, as production with point-in-time recovery; the
 * model is given the same) is refused on both with the same status and message.
 */
class ModelVersionsFidelityTest {
    private static ModelServer model;

    @BeforeAll
    static void start() throws Exception {
        model = ModelServer.start(0, ModelServer.Options.DEFAULT.withLatency(0, 0)
                .withVersionRetention(Duration.ofDays(7)));
    }

    @AfterAll
    static void stop() {
        model.close();
    }

    @Test
    void readsAsOfPastMomentsGiveTheSameAnswersOnTheFirestoreEmulatorAndTheModel() throws Exception {
        Datastore firestore = SharedEmulator.connect(SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR,
                "versions"));
        Datastore modelled = Session.open(ConnectionSpec.model(model.hostPort(), "versions")).datastore();
        List<Datastore> both = List.of(firestore, modelled);

        for (Datastore d : both) { // 40 entities: ids, names, some under a parent
            List<Entity> seed = new ArrayList<>();
            for (int i = 1; i <= 40; i++) {
                seed.add(entity(d, i, i, "seed"));
            }
            d.put(seed.toArray(new Entity[0]));
        }
        Instant t1 = between();
        for (Datastore d : both) { // change 1-10, delete 11-20, create 41-50
            List<Entity> changed = new ArrayList<>();
            for (int i = 1; i <= 10; i++) {
                changed.add(entity(d, i, 100 + i, "changed"));
            }
            for (int i = 41; i <= 50; i++) {
                changed.add(entity(d, i, i, "new"));
            }
            d.put(changed.toArray(new Entity[0]));
            for (int i = 11; i <= 20; i++) {
                d.delete(key(d, i));
            }
        }
        Instant t2 = between();
        for (Datastore d : both) { // change 1 again, create 11 again, delete 41 (created after t1)
            d.put(entity(d, 1, 1_000, "again"), entity(d, 11, 11, "back"));
            d.delete(key(d, 41));
        }
        Instant t3 = between();

        int compared = 0;
        for (Instant at : List.of(t1, t2, t3)) {
            ReadOption time = ReadOption.readTime(Timestamp.ofTimeSecondsAndNanos(at.getEpochSecond(), at.getNano()));
            for (Function<Datastore, List<String>> read : reads(time)) {
                List<String> expected = read.apply(firestore);
                assertThat(read.apply(modelled)).as("as of %s, read %d", at, compared % reads(time).size())
                        .isEqualTo(expected);
                compared++;
            }
        }
        List<String> atT1 = lookups(firestore, ReadOption.readTime(Timestamp.ofTimeSecondsAndNanos(t1.getEpochSecond(),
                t1.getNano())));
        assertThat(atT1).as("the emulator itself read the past: at t1, 1 unchanged, 11 there, 41 not yet")
                .contains("F:k1 v=1 s=seed", "F:k11 v=11 s=seed", "missing F:k41");
        for (Function<Datastore, List<String>> read : reads(null)) {
            assertThat(read.apply(modelled)).as("live").isEqualTo(read.apply(firestore));
        }
        for (Datastore d : both) { // a read in a transaction still reads the present
            var tx = d.newTransaction();
            assertThat(line(tx.get(key(d, 1)), key(d, 1))).isEqualTo("F:k1 v=1000 s=again");
            tx.rollback();
        }
        assertThat(compared).isEqualTo(3 * reads(null).size());
    }

    @Test
    void aReadInTheFutureOrOlderThanTheWindowIsRefusedAlikeOnBoth() {
        Datastore firestore = SharedEmulator.connect(SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR,
                "window"));
        Datastore modelled = Session.open(ConnectionSpec.model(model.hostPort(), "window")).datastore();
        Instant now = Instant.now();
        for (Instant at : List.of(now.plus(2, ChronoUnit.MINUTES), now.minus(Duration.ofDays(7)).minus(5,
                ChronoUnit.MINUTES), Instant.parse("2001-01-01T00:00:00Z"))) {
            ReadOption time = ReadOption.readTime(Timestamp.ofTimeSecondsAndNanos(at.getEpochSecond(), 0));
            for (Function<Datastore, List<String>> read : reads(time)) {
                List<String> expected = refusal(firestore, read);
                assertThat(expected).as("the emulator refuses %s", at).first().asString().startsWith("refused ");
                assertThat(refusal(modelled, read)).as("as of %s", at).isEqualTo(expected);
            }
        }
        ReadOption sixDays = ReadOption.readTime(Timestamp.ofTimeSecondsAndNanos(now.minus(Duration.ofDays(6))
                .truncatedTo(ChronoUnit.MINUTES).getEpochSecond(), 0));
        assertThat(lookups(modelled, sixDays)).as("inside the window: nothing existed then").allMatch(
                line -> line.startsWith("missing "));
        assertThat(lookups(firestore, sixDays)).isEqualTo(lookups(modelled, sixDays));
    }

    /** Sleeps, takes a moment, sleeps: a moment strictly between two writes on both servers. */
    private static Instant between() throws InterruptedException {
        Thread.sleep(30);
        Instant at = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(30);
        return at;
    }

    /** Every read compared, each with {@code time} (null: live). */
    private static List<Function<Datastore, List<String>>> reads(ReadOption time) {
        ReadOption[] options = time == null ? new ReadOption[0] : new ReadOption[] {time};
        return List.of(
                d -> lookups(d, options),
                d -> entities(d, Query.newEntityQueryBuilder().setKind("F").build(), options),
                d -> pagedKeys(d, options),
                d -> entities(d, Query.newEntityQueryBuilder().setKind("F").setFilter(PropertyFilter.eq("s", "seed"))
                        .build(), options),
                d -> entities(d, Query.newEntityQueryBuilder().setKind("F").setOrderBy(OrderBy.desc("__key__"))
                        .setLimit(15).build(), options),
                d -> count(d, Query.newKeyQueryBuilder().setKind("F").build(), options),
                d -> count(d, Query.newKeyQueryBuilder().setKind("F").setFilter(PropertyFilter.eq("s", "seed"))
                        .build(), options));
    }

    private static List<String> refusal(Datastore datastore, Function<Datastore, List<String>> read) {
        try {
            return List.of("answered " + read.apply(datastore));
        } catch (DatastoreException e) {
            return List.of("refused " + e.getReason() + ": " + e.getMessage());
        }
    }

    /** Entity {@code i}: an id, a name, or (every fifth) an id under a parent. */
    private static Key key(Datastore datastore, int i) {
        KeyFactory keys = datastore.newKeyFactory().setKind("F");
        if (i % 5 == 0) {
            keys.addAncestor(PathElement.of("P", i % 3 + 1));
        }
        return i % 2 == 0 ? keys.newKey(i) : keys.newKey("k" + i);
    }

    private static Entity entity(Datastore datastore, int i, long v, String s) {
        return Entity.newBuilder(key(datastore, i)).set("v", v).set("s", s).build();
    }

    /** Keys changed, deleted, created later, created again, never written, in one lookup. */
    private static List<String> lookups(Datastore datastore, ReadOption... options) {
        List<Key> keys = new ArrayList<>();
        for (int i : new int[] {1, 2, 11, 12, 20, 41, 42, 60}) {
            keys.add(key(datastore, i));
        }
        List<Entity> found = datastore.fetch(keys, options);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            out.add(line(found.get(i), keys.get(i)));
        }
        return out;
    }

    private static String line(Entity entity, Key key) {
        return entity == null ? "missing " + path(key)
                : path(entity.getKey()) + " v=" + entity.getLong("v") + " s=" + entity.getString("s");
    }

    private static List<String> entities(Datastore datastore, EntityQuery query, ReadOption... options) {
        List<String> out = new ArrayList<>();
        datastore.run(query, options).forEachRemaining(e -> out.add(line(e, e.getKey())));
        return out;
    }

    /** A key range read in pages of 4 by cursor, as KeyRanger's jobs read one. */
    private static List<String> pagedKeys(Datastore datastore, ReadOption... options) {
        KeyQuery.Builder query = Query.newKeyQueryBuilder().setKind("F").setFilter(CompositeFilter.and(
                PropertyFilter.ge("__key__", key(datastore, 4)), PropertyFilter.lt("__key__", key(datastore, 13))))
                .setLimit(4);
        List<String> out = new ArrayList<>();
        while (true) {
            QueryResults<Key> page = datastore.run(query.build(), options);
            int n = 0;
            while (page.hasNext()) {
                out.add(path(page.next()));
                n++;
            }
            out.add("|");
            if (n < 4) {
                return out;
            }
            query.setStartCursor(page.getCursorAfter());
        }
    }

    private static List<String> count(Datastore datastore, KeyQuery query, ReadOption... options) {
        AggregationResult result = datastore.runAggregation(Query.newAggregationQueryBuilder().over(query)
                .addAggregation(Aggregation.count().as("n")).build(), options).get(0);
        return List.of("count " + result.getLong("n"));
    }

    /** A key without its project: the two servers hold different projects. */
    private static String path(Key key) {
        StringBuilder out = new StringBuilder();
        key.getAncestors().forEach(e -> out.append(e.getKind()).append(':').append(e.getNameOrId()).append('/'));
        return out.append(key.getKind()).append(':').append(key.getNameOrId()).toString();
    }
}
