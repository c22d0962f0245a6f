package io.keyranger.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.CompositeFilter;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.Transaction;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * A benchmark, not part of {@code mvn verify}: what one call of each kind costs the legacy Datastore emulator,
 * single-threaded and without added latency, on kinds of growing size. It explains where {@code keyranger bench}'s
 * time goes on this machine. Run with {@code mvn -B test -Dtest=EmulatorCostBenchmark
 * [-Dkeyranger.costbench.sizes=10000,50000]}; it prints milliseconds per call.
 */
class EmulatorCostBenchmark {
    private static final int[] SIZES = Arrays.stream(System.getProperty("keyranger.costbench.sizes", "10000,50000")
            .split(",")).mapToInt(Integer::parseInt).toArray();
    private static final int CALLS = 10;
    private static final int CHUNK = 20;

    @Test
    void whatEachCallCostsTheEmulatorAsTheKindGrows() {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("cost"));
        Random random = new Random(7);
        System.out.printf("%nms per call, single-threaded, no added latency (%d calls each)%n", CALLS);
        for (int size : SIZES) {
            String kind = "Cost" + size;
            KeyFactory factory = datastore.newKeyFactory().setKind(kind);
            BenchRunner.put(datastore, BenchShape.MIXED.entities(factory, size, 42));
            List<Key> keys = new ArrayList<>();
            datastore.run(Query.newKeyQueryBuilder().setKind(kind).setOrderBy(OrderBy.asc("__key__")).build())
                    .forEachRemaining(keys::add);
            assertThat(keys).hasSize(size);
            System.out.printf("kind of %,d entities (the project holds %,d)%n", size, keys.size() + previous(size));
            measure("page of 100 keys after a random key, open-ended", () -> {
                Key from = keys.get(random.nextInt(size - 500));
                return count(datastore, Query.newKeyQueryBuilder().setKind(kind)
                        .setFilter(PropertyFilter.gt("__key__", from)).setOrderBy(OrderBy.asc("__key__"))
                        .setLimit(100).build());
            }, 100);
            measure("page of 100 keys in a range of 1,000 keys", () -> {
                int at = random.nextInt(size - 1_100);
                return count(datastore, Query.newKeyQueryBuilder().setKind(kind)
                        .setFilter(CompositeFilter.and(PropertyFilter.gt("__key__", keys.get(at)),
                                PropertyFilter.lt("__key__", keys.get(at + 1_000))))
                        .setOrderBy(OrderBy.asc("__key__")).setLimit(100).build());
            }, 100);
            measure("page of 100 keys near the end of the kind", () -> count(datastore, Query.newKeyQueryBuilder()
                    .setKind(kind).setFilter(PropertyFilter.gt("__key__", keys.get(size - 300)))
                    .setOrderBy(OrderBy.asc("__key__")).setLimit(100).build()), 100);
            measure("lookup of " + CHUNK + " entities", () -> {
                int at = random.nextInt(size - CHUNK);
                return (int) datastore.fetch(keys.subList(at, at + CHUNK).toArray(new Key[0])).stream()
                        .filter(e -> e != null).count();
            }, CHUNK);
            measure("transaction: lookup " + CHUNK + " + 2, put them, commit", () -> {
                int at = random.nextInt(size - CHUNK);
                return chunkTransaction(datastore, keys.subList(at, at + CHUNK));
            }, CHUNK);
        }
    }

    private static int previous(int size) {
        return Arrays.stream(SIZES).takeWhile(s -> s != size).sum();
    }

    /** One chunk as the executor commits it: one lookup of the entities, a checkpoint and a shard; one commit. */
    private static int chunkTransaction(Datastore datastore, List<Key> chunk) {
        Key checkpoint = datastore.newKeyFactory().setKind("CostCheckpoint").newKey("c");
        Key shard = datastore.newKeyFactory().setKind("CostShard").newKey("s");
        List<Key> reads = new ArrayList<>(chunk);
        reads.add(checkpoint);
        reads.add(shard);
        Transaction tx = datastore.newTransaction();
        List<Entity> found = tx.fetch(reads.toArray(new Key[0]));
        List<Entity> puts = new ArrayList<>();
        for (Entity entity : found.subList(0, chunk.size())) {
            puts.add(Entity.newBuilder(entity).set("n", entity.getLong("n") + 1).build());
        }
        puts.add(Entity.newBuilder(checkpoint).set("at", chunk.get(chunk.size() - 1).toString()).build());
        puts.add(Entity.newBuilder(shard).set("read", chunk.size()).build());
        tx.put(puts.toArray(new Entity[0]));
        tx.commit();
        return chunk.size();
    }

    private static int count(Datastore datastore, Query<Key> query) {
        int[] n = {0};
        datastore.run(query).forEachRemaining(k -> n[0]++);
        return n[0];
    }

    /** Two untimed calls, then {@link #CALLS} timed ones, each of which must return {@code expected} results. */
    private static void measure(String what, IntSupplier call, int expected) {
        for (int i = 0; i < 2; i++) {
            assertThat(call.getAsInt()).as(what).isEqualTo(expected);
        }
        long started = System.nanoTime();
        for (int i = 0; i < CALLS; i++) {
            assertThat(call.getAsInt()).as(what).isEqualTo(expected);
        }
        System.out.printf("  %-52s %7.1f ms%n", what, (System.nanoTime() - started) / 1e6 / CALLS);
    }
}
