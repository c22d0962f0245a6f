package io.keyranger.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.StructuredQuery;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.Transaction;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.KeyCounter;
import io.keyranger.datastore.Session;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ScatterSampler;
import io.keyranger.sharding.ShardPlanner;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The production model through KeyRanger's real client: what it answers, that it serves calls concurrently and
 * aborts conflicting transactions, its key order, scatter rate and limits. (Its answers are compared with the
 * emulator's in {@link ModelFidelityTest}.)
 */
class ModelServerTest {
    private static ModelServer server;
    private static Session session;
    private static Datastore datastore;

    @BeforeAll
    static void start() throws Exception {
        server = ModelServer.start(0, ModelServer.Options.DEFAULT.withLatency(0, 0));
        session = Session.open(ConnectionSpec.model(server.hostPort(), "model-test"));
        datastore = session.datastore();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aModelConnectionPlansWithProductionsOrderAndLimits() {
        assertThat(session.order()).isSameAs(KeyOrder.PRODUCTION);
        assertThat(session.limits()).isEqualTo(ServerLimits.PRODUCTION);
        assertThat(session.spec().isLocal()).isTrue();
        assertThat(session.spec().isEmulator()).isFalse();
        assertThat(session.describe()).startsWith("production model 127.0.0.1:");
    }

    @Test
    void putLookupQueryAndDeleteRoundTrip() {
        KeyFactory keys = datastore.newKeyFactory().setKind("Trip");
        List<Entity> entities = new ArrayList<>();
        for (int i = 1; i <= 2_500; i++) {
            entities.add(Entity.newBuilder(i % 2 == 0 ? keys.newKey(i) : keys.newKey("n" + i)).set("i", i)
                    .set("even", i % 2 == 0).build());
        }
        for (int i = 0; i < entities.size(); i += 500) {
            datastore.put(entities.subList(i, i + 500).toArray(new Entity[0]));
        }
        assertThat(datastore.get(keys.newKey(42)).getLong("i")).isEqualTo(42);
        assertThat(datastore.get(keys.newKey(43))).isNull();

        List<Key> all = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Trip").build()).forEachRemaining(all::add);
        assertThat(all).as("more than one batch, all in production key order").hasSize(2_500)
                .isSortedAccordingTo(KeyOrder.PRODUCTION);
        assertThat(all.get(0).getId()).isEqualTo(2L); // ids before names

        KeyQuery range = Query.newKeyQueryBuilder().setKind("Trip").setFilter(StructuredQuery.CompositeFilter.and(
                PropertyFilter.gt("__key__", keys.newKey(100)), PropertyFilter.le("__key__", keys.newKey(120))))
                .setLimit(5).build();
        List<Key> page = new ArrayList<>();
        datastore.run(range).forEachRemaining(page::add);
        assertThat(page).extracting(Key::getId).containsExactly(102L, 104L, 106L, 108L, 110L);

        List<Entity> evens = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Trip").setFilter(StructuredQuery.CompositeFilter.and(
                PropertyFilter.eq("even", true), PropertyFilter.ge("__key__", keys.newKey("n2"))))
                .build()).forEachRemaining(evens::add);
        assertThat(evens).as("the evens have ids, so none is at or past a name").isEmpty();

        assertThat(new KeyCounter(datastore).tryAggregate("", "Trip", null)).hasValue(2_500);
        assertThat(new DatastoreGateway(datastore).kinds("", false)).contains("Trip");
        assertThat(new DatastoreGateway(datastore).properties("", "Trip")).extracting(p -> p.name())
                .contains("i", "even");

        datastore.delete(keys.newKey(42));
        assertThat(datastore.get(keys.newKey(42))).isNull();
    }

    @Test
    void stringsSortByTheirUtf8Bytes() {
        KeyFactory keys = datastore.newKeyFactory().setKind("Utf");
        String privateUse = "\uE000"; // before surrogates in UTF-16, after them in UTF-8
        String astral = "\uD83D\uDE00";
        datastore.put(Entity.newBuilder(keys.newKey(privateUse)).build(), Entity.newBuilder(keys.newKey(astral)).build());
        List<Key> order = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Utf").build()).forEachRemaining(order::add);
        assertThat(order).extracting(Key::getName).containsExactly(privateUse, astral);
    }

    @Test
    void conflictingTransactionsAbortOneAndBlindWritesDoNot() {
        Key key = datastore.newKeyFactory().setKind("Tx").newKey("counter");
        datastore.put(Entity.newBuilder(key).set("n", 0).build());
        Transaction first = datastore.newTransaction();
        Transaction second = datastore.newTransaction();
        long a = first.get(key).getLong("n");
        long b = second.get(key).getLong("n");
        first.put(Entity.newBuilder(key).set("n", a + 1).build());
        first.commit();
        second.put(Entity.newBuilder(key).set("n", b + 1).build());
        assertThatThrownBy(second::commit).isInstanceOf(DatastoreException.class)
                .satisfies(e -> assertThat(((DatastoreException) e).getReason()).isEqualTo("ABORTED"));
        assertThat(datastore.get(key).getLong("n")).isEqualTo(1);

        Transaction blind1 = datastore.newTransaction();
        Transaction blind2 = datastore.newTransaction();
        blind1.put(Entity.newBuilder(key).set("n", 10).build());
        blind2.put(Entity.newBuilder(key).set("n", 20).build());
        blind1.commit();
        blind2.commit();
        assertThat(datastore.get(key).getLong("n")).isEqualTo(20);
    }

    @Test
    void aboutOneKeyInAHundredAndTwentyCarriesScatter() {
        KeyFactory keys = datastore.newKeyFactory().setKind("Scatter");
        List<Entity> entities = new ArrayList<>();
        for (int i = 1; i <= 20_000; i++) {
            entities.add(Entity.newBuilder(i % 3 == 0 ? keys.newKey("s-" + i) : keys.newKey(i)).build());
        }
        for (int i = 0; i < entities.size(); i += 500) {
            datastore.put(entities.subList(i, i + 500).toArray(new Entity[0]));
        }
        List<Key> sample = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Scatter").setOrderBy(OrderBy.asc("__scatter__")).build())
                .forEachRemaining(sample::add);
        assertThat(sample.size()).as("0.78%% of 20,000 is 156").isBetween(110, 200);
        assertThat(sample).doesNotHaveDuplicates().isNotEqualTo(sample.stream().sorted(KeyOrder.PRODUCTION).toList());
        List<Key> again = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Scatter").setOrderBy(OrderBy.asc("__scatter__")).build())
                .forEachRemaining(again::add);
        assertThat(again).as("deterministic").isEqualTo(sample);
    }

    @Test
    void scatterOrderWithAPropertyFilterWantsACompositeIndexAndThePlannerSamplesTheWholeKind() {
        KeyFactory keys = datastore.newKeyFactory().setKind("Hot");
        List<Entity> entities = new ArrayList<>();
        for (int i = 1; i <= 3_000; i++) {
            entities.add(Entity.newBuilder(keys.newKey(i)).set("hot", i <= 300).build());
        }
        for (int i = 0; i < entities.size(); i += 500) {
            datastore.put(entities.subList(i, i + 500).toArray(new Entity[0]));
        }
        PropertyFilter hot = PropertyFilter.eq("hot", true);
        assertThatThrownBy(() -> datastore.run(Query.newKeyQueryBuilder().setKind("Hot").setFilter(hot)
                .setOrderBy(OrderBy.asc("__scatter__")).build()).hasNext())
                .isInstanceOf(DatastoreException.class).hasMessageContaining("no matching index");
        ScatterSampler.Sample sample = new ScatterSampler(datastore,
                KeyOrder.PRODUCTION).sample(new PlanRequest("", "Hot", List.of(hot), 4, 32));
        assertThat(sample.filtersApplied()).as("fell back to the whole kind").isFalse();
        assertThat(sample.keys()).as("samples beyond the 300 hot ones").anyMatch(k -> k.getId() > 300);
        List<Key> matching = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Hot").setFilter(hot).build()).forEachRemaining(matching::add);
        assertThat(matching).hasSize(300);

        List<KeyRange> wholeKind = ShardPlanner.rangesAt(KeyOrder.PRODUCTION,
                ShardPlanner.evenlySpaced(sample.keys(), 4));
        assertThat(wholeKind).filteredOn(range -> hotIn(range, hot) == 0).as("ranges of the whole kind's sample")
                .hasSize(3);
        ShardPlanner.RangePlan plan = new ShardPlanner(datastore, KeyOrder.PRODUCTION)
                .planRanges(new PlanRequest("", "Hot", List.of(hot), 4, 32), Cancellation.NEVER);
        assertThat(plan.ranges()).hasSize(4).filteredOn(range -> hotIn(range, hot) == 0)
                .as("ranges of the narrowed sample without a hot entity").hasSizeLessThanOrEqualTo(1);
        assertThat(plan.ranges().stream().mapToLong(range -> hotIn(range, hot)).sum()).isEqualTo(300);
    }

    /** The hot entities the model's own filtered query finds in {@code range}. */
    private static long hotIn(KeyRange range, PropertyFilter hot) {
        List<Key> found = new ArrayList<>();
        datastore.run(range.applyTo(Query.newKeyQueryBuilder().setKind("Hot"), List.of(hot)).build())
                .forEachRemaining(found::add);
        return found.size();
    }

    @Test
    void aBenchInAnotherProcessSteersTheModelOverItsControlPaths() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String base = "http://" + server.hostPort() + ModelServer.CONTROL;
        datastore.get(datastore.newKeyFactory().setKind("Control").newKey(1));
        String stats = http.send(HttpRequest.newBuilder(URI.create(base + "stats")).build(),
                HttpResponse.BodyHandlers.ofString()).body().trim();
        assertThat(Long.parseLong(stats.split(" ")[0])).isEqualTo(server.calls()).isPositive();
        var quiet = http.send(HttpRequest.newBuilder(URI.create(base + "quiet"))
                .POST(HttpRequest.BodyPublishers.ofString("true")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(quiet.body()).contains("quiet true");
        long before = server.calls();
        datastore.get(datastore.newKeyFactory().setKind("Control").newKey(1));
        assertThat(server.calls()).as("quiet calls are not counted").isEqualTo(before);
        http.send(HttpRequest.newBuilder(URI.create(base + "quiet"))
                .POST(HttpRequest.BodyPublishers.ofString("false")).build(),
                HttpResponse.BodyHandlers.ofString());
        datastore.get(datastore.newKeyFactory().setKind("Control").newKey(1));
        assertThat(server.calls()).isEqualTo(before + 1);
        assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "nothing")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }

    @Test
    void commitsKeepProductionsLimits() {
        KeyFactory keys = datastore.newKeyFactory().setKind("Limit");
        Entity[] tooMany = new Entity[501];
        for (int i = 0; i < tooMany.length; i++) {
            tooMany[i] = Entity.newBuilder(keys.newKey(i + 1)).build();
        }
        assertThatThrownBy(() -> datastore.put(tooMany)).isInstanceOf(DatastoreException.class)
                .hasMessageContaining("too many mutations");
        Entity big = Entity.newBuilder(keys.newKey("big")).set("body",
                StringValue.newBuilder("x".repeat(1_048_600)).setExcludeFromIndexes(true).build()).build();
        assertThatThrownBy(() -> datastore.put(big)).isInstanceOf(DatastoreException.class)
                .hasMessageContaining("too big");
        Entity[] fiveHundredGroups = Arrays.copyOf(tooMany, 500);
        datastore.put(fiveHundredGroups);
        assertThat(new KeyCounter(datastore).tryAggregate("", "Limit", null)).hasValue(500);
        Key allocated = datastore.allocateId(keys.newKey());
        assertThat(allocated.hasId()).isTrue();
    }

    @Test
    void servesCallsConcurrently() throws Exception {
        // a second in service per call, and the 24 calls let go together on an open channel: on any machine they
        // arrive well within the second that the first of them is served
        try (ModelServer slow = ModelServer.start(0, ModelServer.Options.DEFAULT.withLatency(1_000, 1_000)
                .withCapacity(64))) {
            Datastore client = Session.open(ConnectionSpec.model(slow.hostPort(), "concurrent")).datastore();
            Key key = client.newKeyFactory().setKind("C").newKey(1);
            client.get(key);
            ExecutorService callers = Executors.newFixedThreadPool(24);
            CountDownLatch go = new CountDownLatch(1);
            List<CompletableFuture<Entity>> calls = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return client.get(key);
                }, callers));
            }
            go.countDown();
            for (CompletableFuture<Entity> call : calls) {
                call.get();
            }
            callers.shutdown();
            assertThat(slow.maxInFlight()).as("calls in service at once").isGreaterThanOrEqualTo(12);
        }
    }
}
