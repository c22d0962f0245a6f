package io.keyranger.model;

import com.google.datastore.v1.Entity;
import com.google.datastore.v1.Key;
import com.google.datastore.v1.Mutation;
import com.google.datastore.v1.MutationResult;
import com.google.datastore.v1.PartitionId;
import com.google.rpc.Code;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The model's entities: per partition and kind, a sorted map in the server's key order (so a key range is found in
 * O(log n) and read in O(page)), a version per entity, and the keys that carry {@code __scatter__}, sorted by their
 * scatter value. Commits lock only the keys they touch (striped locks, taken in one order), never the whole store,
 * and check a transaction's reads optimistically: if an entity it read has changed since, the commit is ABORTED.
 */
final class ModelData {
    /** One-in-this-many-ten-thousand keys carry {@code __scatter__}; production's rate is about 0.78%. */
    static final int SCATTER_PER_10K = ModelServer.SCATTER_PER_10K;
    static final int MAX_ENTITY_BYTES = 1_048_572;
    static final int MAX_MUTATIONS = 500;
    private static final int STRIPES = 4096;

    private final ProtoKeyOrder order;
    private final Map<Partition, Map<String, Table>> partitions = new ConcurrentHashMap<>();
    private final AtomicLong versions = new AtomicLong(1);
    private final AtomicLong ids = new AtomicLong(1L << 40);
    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

    /** A partition: project, database and namespace. */
    record Partition(String project, String database, String namespace) {
        static Partition of(PartitionId id) {
            return new Partition(id.getProjectId(), id.getDatabaseId(), id.getNamespaceId());
        }
    }

    /** An entity as stored. */
    record Stored(Entity entity, long version) {
    }

    /** One kind's entities in key order, and its scatter keys in scatter order. */
    static final class Table {
        final ConcurrentSkipListMap<Key, Stored> rows;
        final ConcurrentSkipListMap<Key, Boolean> scatter;

        Table(ProtoKeyOrder order) {
            rows = new ConcurrentSkipListMap<>(order);
            scatter = new ConcurrentSkipListMap<>(Comparator.comparingLong(ModelData::scatterValue).thenComparing(order));
        }
    }

    ModelData(ProtoKeyOrder order) {
        this.order = order;
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    ProtoKeyOrder order() {
        return order;
    }

    /** The keys of a kind, or null if the kind holds nothing. */
    Table table(Partition partition, String kind) {
        Map<String, Table> kinds = partitions.get(partition);
        return kinds == null ? null : kinds.get(kind);
    }

    Map<String, Table> kinds(Partition partition) {
        return partitions.getOrDefault(partition, Map.of());
    }

    Set<Partition> partitions() {
        return partitions.keySet();
    }

    private Table tableFor(Key key) {
        return partitions.computeIfAbsent(Partition.of(key.getPartitionId()), p -> new ConcurrentHashMap<>())
                .computeIfAbsent(kindOf(key), k -> new Table(order));
    }

    static String kindOf(Key key) {
        return key.getPath(key.getPathCount() - 1).getKind();
    }

    /** The current version of a key: 0 when it does not exist. */
    Stored get(Key key) {
        Table table = table(Partition.of(key.getPartitionId()), kindOf(key));
        return table == null ? null : table.rows.get(key);
    }

    long currentVersion() {
        return versions.get();
    }

    /**
     * Applies a commit's mutations atomically: the keys written and the keys a transaction read are locked together;
     * any read whose version changed aborts the commit, and nothing of it is applied.
     *
     * @param reads the versions a transaction read (key to version, 0 for missing), or empty outside a transaction
     */
    List<MutationResult> commit(List<Mutation> mutations, Map<Key, Long> reads) {
        if (mutations.size() > MAX_MUTATIONS) {
            throw new ModelError(Code.INVALID_ARGUMENT, "too many mutations in a commit: " + mutations.size()
                    + " (at most " + MAX_MUTATIONS + ")");
        }
        List<Mutation> complete = new ArrayList<>(mutations.size());
        for (Mutation m : mutations) {
            complete.add(withCompleteKey(m));
        }
        Set<Integer> stripes = new TreeSet<>();
        complete.forEach(m -> stripes.add(stripe(keyOf(m))));
        reads.keySet().forEach(k -> stripes.add(stripe(k)));
        List<ReentrantLock> held = new ArrayList<>(stripes.size());
        try {
            for (int s : stripes) {
                locks[s].lock();
                held.add(locks[s]);
            }
            for (Map.Entry<Key, Long> read : reads.entrySet()) {
                Stored now = get(read.getKey());
                long version = now == null ? 0 : now.version();
                if (version != read.getValue()) {
                    throw new ModelError(Code.ABORTED, "Aborted due to cross-transaction contention: an entity this "
                            + "transaction read was changed by another commit.");
                }
            }
            for (Mutation m : complete) {
                check(m);
            }
            long version = versions.incrementAndGet();
            List<MutationResult> results = new ArrayList<>(complete.size());
            for (int i = 0; i < complete.size(); i++) {
                results.add(apply(complete.get(i), version, mutations.get(i)));
            }
            return results;
        } finally {
            for (int i = held.size() - 1; i >= 0; i--) {
                held.get(i).unlock();
            }
        }
    }

    private void check(Mutation m) {
        switch (m.getOperationCase()) {
            case INSERT -> {
                if (get(m.getInsert().getKey()) != null) {
                    throw new ModelError(Code.ALREADY_EXISTS, "entity already exists: " + describe(m.getInsert().getKey()));
                }
                checkSize(m.getInsert());
            }
            case UPDATE -> {
                if (get(m.getUpdate().getKey()) == null) {
                    throw new ModelError(Code.NOT_FOUND, "no entity to update: " + describe(m.getUpdate().getKey()));
                }
                checkSize(m.getUpdate());
            }
            case UPSERT -> checkSize(m.getUpsert());
            case DELETE -> { }
            default -> throw new ModelError(Code.INVALID_ARGUMENT, "unsupported mutation: " + m.getOperationCase());
        }
    }

    private static void checkSize(Entity entity) {
        if (entity.getSerializedSize() > MAX_ENTITY_BYTES) {
            throw new ModelError(Code.INVALID_ARGUMENT, "entity is too big: " + entity.getSerializedSize()
                    + " bytes (at most 1,048,572)");
        }
    }

    private MutationResult apply(Mutation m, long version, Mutation original) {
        Key key = keyOf(m);
        MutationResult.Builder result = MutationResult.newBuilder().setVersion(version);
        if (!isComplete(keyOf(original))) {
            result.setKey(key);
        }
        Table table = tableFor(key);
        if (m.getOperationCase() == Mutation.OperationCase.DELETE) {
            table.rows.remove(key);
            table.scatter.remove(key);
        } else {
            Entity entity = switch (m.getOperationCase()) {
                case INSERT -> m.getInsert();
                case UPDATE -> m.getUpdate();
                default -> m.getUpsert();
            };
            table.rows.put(key, new Stored(entity, version));
            if (hasScatter(key)) {
                table.scatter.put(key, Boolean.TRUE);
            }
        }
        return result.build();
    }

    /** Loads entities without latency or versions checks (a bench's seed). */
    void load(Collection<Entity> entities) {
        long version = versions.incrementAndGet();
        for (Entity entity : entities) {
            Table table = tableFor(entity.getKey());
            table.rows.put(entity.getKey(), new Stored(entity, version));
            if (hasScatter(entity.getKey())) {
                table.scatter.put(entity.getKey(), Boolean.TRUE);
            }
        }
    }

    private Mutation withCompleteKey(Mutation m) {
        Key key = keyOf(m);
        if (key == null) {
            throw new ModelError(Code.INVALID_ARGUMENT, "a mutation without a key");
        }
        if (isComplete(key)) {
            return m;
        }
        if (m.getOperationCase() != Mutation.OperationCase.INSERT && m.getOperationCase() != Mutation.OperationCase.UPSERT) {
            throw new ModelError(Code.INVALID_ARGUMENT, "an incomplete key can only be inserted: " + describe(key));
        }
        Key complete = allocate(key);
        return m.getOperationCase() == Mutation.OperationCase.INSERT
                ? m.toBuilder().setInsert(m.getInsert().toBuilder().setKey(complete)).build()
                : m.toBuilder().setUpsert(m.getUpsert().toBuilder().setKey(complete)).build();
    }

    /** Completes an incomplete key with a new id. */
    Key allocate(Key key) {
        Key.Builder builder = key.toBuilder();
        int last = key.getPathCount() - 1;
        builder.setPath(last, key.getPath(last).toBuilder().setId(ids.incrementAndGet()));
        return builder.build();
    }

    static boolean isComplete(Key key) {
        Key.PathElement last = key.getPath(key.getPathCount() - 1);
        return last.getIdTypeCase() != Key.PathElement.IdTypeCase.IDTYPE_NOT_SET;
    }

    static Key keyOf(Mutation m) {
        return switch (m.getOperationCase()) {
            case INSERT -> m.getInsert().getKey();
            case UPDATE -> m.getUpdate().getKey();
            case UPSERT -> m.getUpsert().getKey();
            case DELETE -> m.getDelete();
            default -> null;
        };
    }

    private static int stripe(Key key) {
        return Math.floorMod(key.hashCode(), STRIPES);
    }

    /** A deterministic pseudo-random value per key (FNV-1a over its path, then mixed). */
    static long scatterValue(Key key) {
        long h = 0xcbf29ce484222325L;
        for (Key.PathElement e : key.getPathList()) {
            for (byte b : e.getKind().getBytes(StandardCharsets.UTF_8)) {
                h = (h ^ b) * 0x100000001b3L;
            }
            h = (h ^ 0x2f) * 0x100000001b3L;
            if (e.getIdTypeCase() == Key.PathElement.IdTypeCase.ID) {
                h = (h ^ e.getId()) * 0x100000001b3L;
            } else {
                for (byte b : e.getName().getBytes(StandardCharsets.UTF_8)) {
                    h = (h ^ b) * 0x100000001b3L;
                }
            }
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
    }

    /** Whether a key carries {@code __scatter__}: about 0.78% of keys, chosen by a hash of the key. */
    static boolean hasScatter(Key key) {
        return Math.floorMod(scatterValue(key) * 0x9e3779b97f4a7c15L >>> 1, 10_000L) < SCATTER_PER_10K;
    }

    static String describe(Key key) {
        StringBuilder out = new StringBuilder();
        for (Key.PathElement e : key.getPathList()) {
            out.append(out.length() == 0 ? "" : ", ").append(e.getKind()).append(' ')
                    .append(e.getIdTypeCase() == Key.PathElement.IdTypeCase.ID ? String.valueOf(e.getId())
                            : "'" + e.getName() + "'");
        }
        return out.toString();
    }
}
