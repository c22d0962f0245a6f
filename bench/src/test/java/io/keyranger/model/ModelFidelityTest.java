package io.keyranger.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.Transaction;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.keys.KeyOrder;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The model is checked against the real emulator: the same seeded random sequence of puts, range queries, lookups,
 * transactions and deletes runs on both, and every answer is compared. The emulator sorts strings by UTF-16 code
 * units, production by UTF-8 bytes; so the model runs here in the emulator's collation for an exact comparison, and a
 * second model in production's collation must give the same answers as sets, in its own order.
 */
class ModelFidelityTest {
    private static final int STEPS = 300;
    private static ModelServer emulatorOrdered;
    private static ModelServer productionOrdered;

    @BeforeAll
    static void start() throws Exception {
        emulatorOrdered = ModelServer.start(0, ModelServer.Options.DEFAULT.withLatency(0, 0)
                .withOrder(ProtoKeyOrder.EMULATOR));
        productionOrdered = ModelServer.start(0, ModelServer.Options.DEFAULT.withLatency(0, 0));
    }

    @AfterAll
    static void stop() {
        emulatorOrdered.close();
        productionOrdered.close();
    }

    @Test
    void theSameRandomOperationsGiveTheSameAnswersOnTheEmulatorAndTheModel() {
        Datastore emulator = SharedEmulator.connect(SharedEmulator.freshProject("fidelity"));
        Datastore model = Session.open(ConnectionSpec.model(emulatorOrdered.hostPort(), "fidelity")).datastore();
        Datastore production = Session.open(ConnectionSpec.model(productionOrdered.hostPort(), "fidelity"))
                .datastore();
        Random random = new Random(2026);
        int compared = 0;
        for (int step = 0; step < STEPS; step++) {
            int op = random.nextInt(10);
            long seed = random.nextLong();
            if (op < 3) {
                List<Object> e = run(emulator, seed, ModelFidelityTest::put);
                assertThat(run(model, seed, ModelFidelityTest::put)).as("put, step %d", step).isEqualTo(e);
                run(production, seed, ModelFidelityTest::put);
            } else if (op < 6) {
                List<Object> e = run(emulator, seed, ModelFidelityTest::rangeQuery);
                assertThat(run(model, seed, ModelFidelityTest::rangeQuery)).as("range query, step %d", step)
                        .isEqualTo(e);
                List<Object> p = run(production, seed, ModelFidelityTest::rangeQueryAsSet);
                assertThat(p).as("range query as a set in production order, step %d", step)
                        .isEqualTo(run(emulator, seed, ModelFidelityTest::rangeQueryAsSet));
            } else if (op < 8) {
                List<Object> e = run(emulator, seed, ModelFidelityTest::lookup);
                assertThat(run(model, seed, ModelFidelityTest::lookup)).as("lookup, step %d", step).isEqualTo(e);
                assertThat(run(production, seed, ModelFidelityTest::lookup)).isEqualTo(e);
            } else if (op == 8) {
                List<Object> e = run(emulator, seed, ModelFidelityTest::transaction);
                assertThat(run(model, seed, ModelFidelityTest::transaction)).as("transaction, step %d", step)
                        .isEqualTo(e);
                run(production, seed, ModelFidelityTest::transaction);
            } else {
                List<Object> e = run(emulator, seed, ModelFidelityTest::delete);
                assertThat(run(model, seed, ModelFidelityTest::delete)).as("delete, step %d", step).isEqualTo(e);
                run(production, seed, ModelFidelityTest::delete);
            }
            compared++;
        }
        assertThat(compared).isEqualTo(STEPS);
        List<Key> all = keys(emulator, Query.newKeyQueryBuilder().setKind("F").build());
        assertThat(paths(keys(model, Query.newKeyQueryBuilder().setKind("F").build()))).isEqualTo(paths(all));
        List<Key> inProduction = keys(production, Query.newKeyQueryBuilder().setKind("F").build());
        assertThat(inProduction).isSortedAccordingTo(KeyOrder.PRODUCTION);
        assertThat(paths(inProduction)).containsExactlyInAnyOrderElementsOf(paths(all));
        assertThat(all).as("the sequence left data to compare").hasSizeGreaterThan(100);
    }

    private interface Operation {
        List<Object> apply(Datastore datastore, Random random);
    }

    /** Runs an operation with its own seed; an error is part of the answer (its reason). */
    private static List<Object> run(Datastore datastore, long seed, Operation op) {
        try {
            return op.apply(datastore, new Random(seed));
        } catch (DatastoreException e) {
            return List.of("error " + e.getReason());
        }
    }

    /** Keys with ids, ASCII names, and names whose order differs between UTF-8 and UTF-16; some with a parent. */
    private static Key key(Datastore datastore, Random random) {
        return key(datastore, random, false);
    }

    /** As above; {@code sameInBothOrders}: a key that sorts alike in both collations (an id or an ASCII name). */
    private static Key key(Datastore datastore, Random random, boolean sameInBothOrders) {
        KeyFactory keys = datastore.newKeyFactory().setKind("F");
        if (random.nextInt(5) == 0) {
            keys.addAncestor(com.google.cloud.datastore.PathElement.of("P", 1 + random.nextInt(3)));
        }
        int n = random.nextInt(60);
        return switch (random.nextInt(4)) {
            case 0, 1 -> keys.newKey(1 + n);
            case 2 -> keys.newKey("k" + n);
            default -> sameInBothOrders ? keys.newKey("k" + n)
                    : keys.newKey((n % 2 == 0 ? "\uE000" : "\uD83D\uDE00") + n);
        };
    }

    private static List<Object> put(Datastore datastore, Random random) {
        List<Entity> entities = new ArrayList<>();
        int count = 1 + random.nextInt(20);
        for (int i = 0; i < count; i++) {
            entities.add(Entity.newBuilder(key(datastore, random)).set("v", random.nextInt(5))
                    .set("s", "x" + random.nextInt(3)).build());
        }
        datastore.put(entities.toArray(new Entity[0]));
        return List.of("put " + count);
    }

    private static KeyQuery.Builder range(Datastore datastore, Random random) {
        return range(datastore, random, false);
    }

    private static KeyQuery.Builder range(Datastore datastore, Random random, boolean sameInBothOrders) {
        Key a = key(datastore, random, sameInBothOrders);
        Key b = key(datastore, random, sameInBothOrders);
        KeyQuery.Builder query = Query.newKeyQueryBuilder().setKind("F");
        List<PropertyFilter> filters = new ArrayList<>();
        if (random.nextBoolean()) {
            filters.add(random.nextBoolean() ? PropertyFilter.gt("__key__", a) : PropertyFilter.ge("__key__", a));
        }
        if (random.nextBoolean()) {
            filters.add(random.nextBoolean() ? PropertyFilter.lt("__key__", b) : PropertyFilter.le("__key__", b));
        }
        if (random.nextInt(3) == 0) {
            filters.add(PropertyFilter.eq("v", random.nextInt(5)));
        }
        if (filters.size() == 1) {
            query.setFilter(filters.get(0));
        } else if (filters.size() > 1) {
            query.setFilter(com.google.cloud.datastore.StructuredQuery.CompositeFilter.and(filters.get(0), filters.subList(1, filters.size())
                    .toArray(new com.google.cloud.datastore.StructuredQuery.Filter[0])));
        }
        if (random.nextBoolean()) {
            query.setLimit(1 + random.nextInt(30));
        }
        if (random.nextInt(4) == 0) {
            query.setOrderBy(OrderBy.desc("__key__"));
        }
        return query;
    }

    private static List<Object> rangeQuery(Datastore datastore, Random random) {
        KeyQuery.Builder query = range(datastore, random);
        List<Object> out = new ArrayList<>(paths(keys(datastore, query.build())));
        if (random.nextBoolean() && !out.isEmpty()) {
            // a second page from the first page's cursor, as KeyRanger's browser pages
            QueryResults<Key> first = datastore.run(query.setLimit(Math.max(1, out.size() / 2)).build());
            while (first.hasNext()) {
                first.next();
            }
            out.add("page 2");
            out.addAll(paths(keys(datastore, query.setStartCursor(first.getCursorAfter()).setLimit(1000).build())));
        }
        return out;
    }

    /**
     * The keys of a range as a set, for a server in the other collation: bounds that sort alike in both, no limit
     * (which of the range's keys come first differs between the collations).
     */
    private static List<Object> rangeQueryAsSet(Datastore datastore, Random random) {
        KeyQuery.Builder query = range(datastore, random, true);
        query.setLimit(Integer.MAX_VALUE);
        List<Object> keys = new ArrayList<>(paths(keys(datastore, query.build())));
        keys.sort(java.util.Comparator.comparing(Object::toString));
        return keys;
    }

    private static List<Object> lookup(Datastore datastore, Random random) {
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < 1 + random.nextInt(10); i++) {
            keys.add(key(datastore, random));
        }
        List<Object> out = new ArrayList<>();
        for (Key key : keys) {
            Entity entity = datastore.get(key);
            out.add(entity == null ? "missing " + path(key) : entity.getProperties().toString());
        }
        return out;
    }

    private static List<Object> transaction(Datastore datastore, Random random) {
        Key key = key(datastore, random);
        Transaction tx = datastore.newTransaction();
        Entity current = tx.get(key);
        long v = current == null ? 0 : current.getLong("v");
        tx.put(Entity.newBuilder(key).set("v", v + 1).set("s", "tx").build());
        tx.commit();
        return List.of("read " + (current == null ? "nothing" : v));
    }

    private static List<Object> delete(Datastore datastore, Random random) {
        Key key = key(datastore, random);
        datastore.delete(key);
        return List.of("deleted " + path(key));
    }

    /** A key without its project: the two servers are asked under different project ids. */
    private static String path(Key key) {
        StringBuilder out = new StringBuilder();
        key.getAncestors().forEach(e -> out.append(e.getKind()).append(':').append(e.getNameOrId()).append('/'));
        return out.append(key.getKind()).append(':').append(key.getNameOrId()).toString();
    }

    private static List<String> paths(List<Key> keys) {
        return keys.stream().map(ModelFidelityTest::path).toList();
    }

    private static List<Key> keys(Datastore datastore, Query<Key> query) {
        List<Key> keys = new ArrayList<>();
        datastore.run(query).forEachRemaining(keys::add);
        return keys;
    }
}
