package io.keyranger.model;

import com.google.datastore.v1.Entity;
import com.google.datastore.v1.Key;
import com.google.datastore.v1.Mutation;
import com.google.datastore.v1.MutationResult;
import com.google.datastore.v1.PartitionId;
import com.google.rpc.Code;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
 * O(log n) and read in O(page)), and the keys that carry {@code __scatter__}, sorted by their scatter value. Each key
 * holds its newest version and, while a read in the window may need them, the versions it replaced ({@link Stored}):
 * a deleted entity stays as a deletion until its last version leaves the window, so a read of the past finds it. Commits
 * lock only the keys they touch (striped locks, taken in one order), never the whole store, and check a transaction's
 * reads optimistically: if an entity it read has changed since, the commit is ABORTED.
 */
final class ModelData {
    /** One-in-this-many-ten-thousand keys carry {@code __scatter__}; production's rate is about 0.78%. */
    static final int SCATTER_PER_10K = ModelServer.SCATTER_PER_10K;
    static final int MAX_ENTITY_BYTES = 1_048_572;
    static final int MAX_MUTATIONS = 500;
    private static final int STRIPES = 4096;

    /** Expired versions pruned after each commit at most, so that no commit waits long behind a backlog. */
    private static final int PRUNED_PER_COMMIT = 256;

    private final ProtoKeyOrder order;
    private final ModelVersions versions;
    private final Map<Partition, Map<String, Table>> partitions = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong(1L << 40);
    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

    /** A partition: project, database and namespace. */
    record Partition(String project, String database, String namespace) {
        static Partition of(PartitionId id) {
            return new Partition(id.getProjectId(), id.getDatabaseId(), id.getNamespaceId());
        }
    }

    /**
     * One kind's entities in key order, its deletions the window still holds in a map of their own (so a read of the
     * present never steps over them), and its scatter keys in scatter order (deleted ones among them until pruned).
     */
    static final class Table {
        final ConcurrentSkipListMap<Key, Stored> rows;
        final ConcurrentSkipListMap<Key, Stored> gone;
        final ConcurrentSkipListMap<Key, Boolean> scatter;
        /** The indexes of the properties a query has filtered on, once filled. */
        private final Map<String, PropertyIndex> indexes = new ConcurrentHashMap<>();
        /** The same, and any being filled: every write lists its entity in each. */
        private final Map<String, PropertyIndex> writing = new ConcurrentHashMap<>();
        private final ProtoKeyOrder order;

        Table(ProtoKeyOrder order) {
            this.order = order;
            rows = new ConcurrentSkipListMap<>(order);
            gone = new ConcurrentSkipListMap<>(order);
            scatter = new ConcurrentSkipListMap<>(Comparator.comparingLong(ModelData::scatterValue).thenComparing(order));
        }

        /**
         * The index of {@code property}, made the first time a query asks: listed where writes see it first, then
         * filled from every version the kind holds, so that a write during the filling lists itself or is found.
         */
        PropertyIndex index(String property) {
            PropertyIndex index = indexes.get(property);
            if (index != null) {
                return index;
            }
            synchronized (this) {
                index = indexes.get(property);
                if (index == null) {
                    PropertyIndex filling = new PropertyIndex(property, order);
                    writing.put(property, filling);
                    rows.values().forEach(head -> head.forEachVersion(filling::add));
                    gone.values().forEach(head -> head.forEachVersion(filling::add));
                    indexes.put(property, filling);
                    index = filling;
                }
                return index;
            }
        }

        /** Lists a new version in every index of the kind (after it is stored, so a filling index finds it or is seen). */
        void indexed(Entity entity) {
            for (PropertyIndex index : writing.values()) {
                index.add(entity);
            }
        }

        /** Whether the kind holds no entity now. */
        boolean isEmpty() {
            return rows.isEmpty();
        }

        /** The newest version of {@code key}: live, or (for a read of the past) a deletion; null when neither. */
        Stored head(Key key, long time) {
            Stored head = rows.get(key);
            return head != null || time == ModelVersions.LIVE ? head : gone.get(key);
        }
    }

    ModelData(ProtoKeyOrder order, Duration retention) {
        this.order = order;
        this.versions = new ModelVersions(retention);
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

    ModelVersions versions() {
        return versions;
    }

    /** The entity at {@code key} now, or null. */
    Stored get(Key key) {
        return get(key, ModelVersions.LIVE);
    }

    /** The version of the entity at {@code key} a read as of {@code time} sees, or null ({@link Stored#at}). */
    Stored get(Key key, long time) {
        Table table = table(Partition.of(key.getPartitionId()), kindOf(key));
        Stored head = table == null ? null : table.head(key, time);
        return head == null ? null : head.at(time);
    }

    long currentVersion() {
        return versions.current();
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
            long version = versions.begin();
            try {
                List<MutationResult> results = new ArrayList<>(complete.size());
                for (int i = 0; i < complete.size(); i++) {
                    results.add(apply(complete.get(i), version, mutations.get(i)));
                }
                return results;
            } finally {
                versions.end(version);
            }
        } finally {
            for (int i = held.size() - 1; i >= 0; i--) {
                held.get(i).unlock();
            }
            prune(PRUNED_PER_COMMIT);
        }
    }

    /**
     * Prunes up to {@code most} versions that have left the window: each key they belong to keeps only what a read
     * in the window can see, and a deletion older than the window leaves the map. Locks one key's stripe at a time,
     * never while a commit's are held.
     */
    void prune(int most) {
        for (int i = 0; i < most; i++) {
            Stored expired = versions.expired();
            if (expired == null) {
                return;
            }
            Key key = expired.entity().getKey();
            ReentrantLock lock = locks[stripe(key)];
            lock.lock();
            try {
                Table table = table(Partition.of(key.getPartitionId()), kindOf(key));
                Stored head = table == null ? null : table.head(key, 0);
                if (head != null && head.trim(versions.earliest()) && table.gone.remove(key, head)) {
                    table.scatter.remove(key);
                }
            } finally {
                lock.unlock();
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
        MutationResult.Builder result = MutationResult.newBuilder().setVersion(version)
                .setUpdateTime(ModelVersions.timestamp(version));
        if (!isComplete(keyOf(original))) {
            result.setKey(key);
        }
        Entity entity = switch (m.getOperationCase()) {
            case INSERT -> m.getInsert();
            case UPDATE -> m.getUpdate();
            case UPSERT -> m.getUpsert();
            default -> null;
        };
        write(key, entity, version);
        return result.build();
    }

    /**
     * Makes {@code entity} (null: a deletion) the newest version of {@code key}, keeping the one it replaces for
     * reads of the past; its stripe is locked, or nothing else writes (a seed).
     */
    private void write(Key key, Entity entity, long version) {
        Table table = tableFor(key);
        Stored live = table.rows.get(key);
        Stored old = live != null ? live : table.gone.get(key);
        if (entity == null && live == null) {
            return; // nothing to delete: no new version
        }
        // each change adds before it removes, so a read of the past always finds the key in one map or the other
        if (entity == null) {
            Stored head = new Stored(live.entity(), version, true, live);
            table.gone.put(key, head);
            table.rows.remove(key);
            versions.replaced(head);
            return;
        }
        Stored head = new Stored(entity, version, false, old);
        table.rows.put(key, head);
        table.indexed(entity);
        if (old != null) {
            if (live == null) {
                table.gone.remove(key);
            }
            versions.replaced(head);
        }
        if (hasScatter(key)) {
            table.scatter.put(key, Boolean.TRUE);
        }
    }

    /** Loads entities without latency or checks, in one commit (a bench's seed). */
    void load(Collection<Entity> entities) {
        long version = versions.begin();
        try {
            for (Entity entity : entities) {
                write(entity.getKey(), entity, version);
            }
        } finally {
            versions.end(version);
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
