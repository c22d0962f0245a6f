package io.keyranger.counter;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreReader;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.Retries;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A persisted counter spread over N shard entities so that many writers never contend on one entity. An increment
 * goes to one shard inside a transaction (the caller's, so that it commits with the work it counts); the total is
 * the sum of the shards. Each thread that writes to a counter gets a shard of its own, in turn from a random one,
 * and keeps it whichever object of that counter it writes through (a Beam worker opens one per DoFn): with at least
 * as many shards as threads, the writers of one process never abort each other. Separate processes start at random
 * shards, and a writer whose commit aborted on contention moves to another shard ({@link #moveOn}). A counter holds
 * several named fields ("read", "written", …). Its shard count can grow, never shrink: shards are root entities
 * {@code _KeyRangerCounter/NAME#i} in the default namespace, so each is its own entity group, and a meta entity
 * records the count.
 */
public final class ShardedCounter {
    public static final String SHARD_KIND = BookkeepingKinds.PREFIX + "Counter";
    public static final String META_KIND = BookkeepingKinds.PREFIX + "CounterMeta";
    public static final String DEFAULT_FIELD = "value";

    private final Datastore datastore;
    private final String name;
    private final int shards;
    /** Per counter name, this process's next writer's turn: consecutive from a random start. */
    private static final ConcurrentHashMap<String, AtomicInteger> NEXT_WRITER =
            new ConcurrentHashMap<>();
    /** Per thread, its turn at each counter it writes to (taken modulo the shard count where it is used). */
    private static final ThreadLocal<Map<String, Integer>> TURNS = ThreadLocal.withInitial(HashMap::new);

    private ShardedCounter(Datastore datastore, String name, int shards) {
        this.datastore = datastore;
        this.name = name;
        this.shards = shards;
    }

    /**
     * Opens a counter, creating it or growing it to at least {@code minShards}. A counter never shrinks: asking for
     * fewer shards than it has keeps the ones it has.
     */
    public static ShardedCounter open(Datastore datastore, String name, int minShards) {
        Entity created = created(datastore, name, minShards);
        Transaction tx = datastore.newTransaction();
        try {
            Entity existing = tx.get(created.getKey());
            int current = existing == null ? 0 : (int) existing.getLong("shards");
            if (current < minShards) {
                tx.put(created);
                tx.commit();
                current = minShards;
            }
            return new ShardedCounter(datastore, name, current);
        } finally {
            if (tx.isActive()) {
                Retries.rollbackQuietly(tx);
            }
        }
    }

    /**
     * What creates counter {@code name} with {@code shards} shards, for the caller to write in a transaction of its
     * own (one that creates what the counter counts); once that commits, {@link #created(Datastore, Entity)} opens it.
     */
    public static Entity created(Datastore datastore, String name, int shards) {
        if (name == null || name.isBlank() || name.contains("#")) {
            throw new KeyRangerException("A counter name must be non-empty and must not contain '#'.");
        }
        if (shards < 1 || shards > 1000) {
            throw new KeyRangerException("A counter has between 1 and 1000 shards (got " + shards + ").");
        }
        return Entity.newBuilder(metaKey(datastore, name)).set("shards", shards).build();
    }

    /** The counter that {@code created} (made by {@link #created(Datastore, String, int)}, and committed) created. */
    public static ShardedCounter created(Datastore datastore, Entity created) {
        return new ShardedCounter(datastore, created.getKey().getName(), (int) created.getLong("shards"));
    }

    /** Opens an existing counter with the shard count it has; an unknown name is an error. */
    public static ShardedCounter existing(Datastore datastore, String name) {
        Entity meta = datastore.get(metaKey(datastore, name));
        if (meta == null) {
            throw new KeyRangerException("No counter named '" + name + "'.");
        }
        return new ShardedCounter(datastore, name, (int) meta.getLong("shards"));
    }

    public String name() {
        return name;
    }

    public int shards() {
        return shards;
    }

    /**
     * Adds the increments to this thread's shard inside {@code tx}; the caller commits. Reads the shard in the
     * transaction, so that concurrent increments to the same shard abort and retry instead of losing one.
     */
    public void increment(Transaction tx, Map<String, Long> increments) {
        if (increments.values().stream().allMatch(v -> v == 0)) {
            return;
        }
        Key shard = pickShard();
        increment(tx, shard, tx.get(shard), increments);
    }

    /** This thread's shard, for a caller that reads it together with its own keys in one lookup. */
    public Key pickShard() {
        return shardKey(Math.floorMod(turn(), shards));
    }

    private int turn() {
        return TURNS.get().computeIfAbsent(name, n -> NEXT_WRITER.computeIfAbsent(n,
                k -> new AtomicInteger(ThreadLocalRandom.current().nextInt(1 << 20))).getAndIncrement());
    }

    /**
     * After a commit of this thread aborted on contention: its shard may be another writer's too (one of another
     * process), so it moves to another shard, at random.
     */
    public void moveOn() {
        if (shards > 1) {
            TURNS.get().put(name, turn() + 1 + ThreadLocalRandom.current().nextInt(shards - 1));
        }
    }

    /**
     * Adds the increments to {@code shard} inside {@code tx}, given its value as read in that transaction
     * ({@code current}, null if it does not exist yet); the caller commits.
     */
    public void increment(Transaction tx, Key shard, Entity current, Map<String, Long> increments) {
        if (increments.values().stream().allMatch(v -> v == 0)) {
            return;
        }
        Entity.Builder next = current == null ? Entity.newBuilder(shard) : Entity.newBuilder(current);
        increments.forEach((field, by) -> {
            long before = current != null && current.contains(field) ? current.getLong(field) : 0;
            next.set(field, before + by);
        });
        next.set("counter", name);
        tx.put(next.build());
    }

    /**
     * Increments in a transaction of its own, retrying when another writer got to the same shard first.
     *
     * @return how many attempts aborted on contention before one committed
     */
    public int increment(String field, long by, int maxAttempts) {
        return increment(field, by, maxAttempts, tx -> { });
    }

    /**
     * As above, with a precondition run inside the transaction before the increment (it may read and throw, e.g. a
     * job's fence check), so that the increment commits only if the precondition still holds at commit time.
     */
    public int increment(String field, long by, int maxAttempts,
                         Consumer<Transaction> precondition) {
        return increment(field, by, new Retries.Simple(maxAttempts, 5, 500, 60_000), precondition);
    }

    /**
     * As above, retried by {@code policy} with the one retry loop of KeyRanger ({@link Retries#call}).
     *
     * @return how many attempts aborted on contention before one committed
     */
    public int increment(String field, long by, Retries.Policy policy,
                         Consumer<Transaction> precondition) {
        AtomicInteger aborted = new AtomicInteger();
        Retries.call(policy, new Retries.Observer() {
            @Override
            public void retrying(Throwable problem) {
                if (Retries.isAborted(problem)) {
                    aborted.incrementAndGet();
                    moveOn();
                }
            }
        }, () -> {
            Transaction tx = datastore.newTransaction();
            try {
                precondition.accept(tx);
                increment(tx, Map.of(field, by));
                tx.commit();
                return null;
            } finally {
                if (tx.isActive()) {
                    Retries.rollbackQuietly(tx);
                }
            }
        });
        return aborted.get();
    }

    /** The total of every field over all shards. */
    public Map<String, Long> totals() {
        return totals(datastore);
    }

    /** The totals as read by {@code reader}: a transaction gives a consistent snapshot. */
    public Map<String, Long> totals(DatastoreReader reader) {
        Map<String, Long> totals = new TreeMap<>();
        Query<Entity> query = Query.newEntityQueryBuilder().setNamespace("").setKind(SHARD_KIND)
                .setFilter(PropertyFilter.eq("counter", name)).build();
        reader.run(query).forEachRemaining(shard -> shard.getNames().stream().filter(n -> !n.equals("counter"))
                .forEach(field -> totals.merge(field, shard.getLong(field), Long::sum)));
        return totals;
    }

    public long total(String field) {
        return totals().getOrDefault(field, 0L);
    }

    private Key shardKey(int index) {
        return datastore.newKeyFactory().setNamespace("").setKind(SHARD_KIND).newKey(name + "#" + index);
    }

    private static Key metaKey(Datastore datastore, String name) {
        return datastore.newKeyFactory().setNamespace("").setKind(META_KIND).newKey(name);
    }
}
