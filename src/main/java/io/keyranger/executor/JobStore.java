package io.keyranger.executor;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreReader;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.Transaction;
import com.google.cloud.datastore.Value;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapperSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Job state in KeyRanger's own kinds of the same database, default namespace: {@code _KeyRangerJob/ID} holds the
 * spec and status, {@code _KeyRangerRange/ID:NODE} each range with its checkpoint and parent link. Any machine
 * can resume a job from them.
 */
final class JobStore {
    static final String JOB_KIND = BookkeepingKinds.PREFIX + "Job";
    static final String RANGE_KIND = BookkeepingKinds.PREFIX + "Range";

    private final Datastore datastore;
    private final CommitHook hook;
    /** The lease of the run that writes ranges: every range it writes carries its epoch. */
    private volatile JobLease lease;

    JobStore(Datastore datastore) {
        this(datastore, CommitHook.NONE);
    }

    JobStore(Datastore datastore, CommitHook hook) {
        this.datastore = datastore;
        this.hook = hook;
    }

    Key jobKey(String jobId) {
        return datastore.newKeyFactory().setNamespace("").setKind(JOB_KIND).newKey(jobId);
    }

    Key nodeKey(String jobId, String nodeId) {
        return datastore.newKeyFactory().setNamespace("").setKind(RANGE_KIND).newKey(jobId + ":" + nodeId);
    }

    /** A new job's entity, not planned yet: its ranges are written next, then {@code planned} is set. */
    Entity.Builder newJobEntity(JobSpec spec, Instant created) {
        return Entity.newBuilder(jobKey(spec.jobId()))
                .set("namespace", spec.namespace()).set("kind", spec.kind())
                .set("mapper", StringValue.newBuilder(spec.mapper().toJson()).setExcludeFromIndexes(true).build())
                .set("shards", spec.shards()).set("workers", spec.workers()).set("pageSize", spec.pageSize())
                .set("qps", spec.qps()).set("status", JobStatus.RUNNING.name()).set("planned", false)
                .set("createdAt", Timestamp.ofTimeSecondsAndNanos(created.getEpochSecond(), created.getNano()));
    }

    /** A lease on a job, its fence being the job entity; the ranges this store writes carry its epoch. */
    JobLease lease(String jobId, java.time.Duration duration) {
        JobLease made = JobLease.of(datastore, jobKey(jobId), jobId, "Job " + jobId, duration);
        this.lease = made;
        return made;
    }

    /** Who holds a job, if it was ever taken. */
    java.util.Optional<JobLease.Holding> holding(String jobId) {
        return JobLease.read(datastore, jobKey(jobId), jobId);
    }

    /**
     * In one transaction: reads the job entity, checks that it is still {@code lease}'s, and puts what {@code writes}
     * makes of it. Throws {@link JobFencedException} and writes nothing when the job was taken over.
     */
    void fencedOnJob(String what, JobLease lease, java.util.function.Function<Entity, List<Entity>> writes) {
        fenced(what, lease.fenceKey(), lease::check, writes);
    }

    /**
     * In one transaction: reads a range's checkpoint, checks that it carries {@code lease}'s epoch, and puts what
     * {@code writes} makes of it. Throws {@link JobFencedException} and writes nothing when the job was taken over.
     */
    void fencedOnRange(String what, JobLease lease, String jobId, String nodeId,
                       java.util.function.Function<Entity, List<Entity>> writes) {
        fenced(what + " " + nodeId, nodeKey(jobId, nodeId), lease::checkRange, writes);
    }

    private void fenced(String what, Key fence, java.util.function.Consumer<Entity> check,
                        java.util.function.Function<Entity, List<Entity>> writes) {
        Transaction tx = datastore.newTransaction();
        try {
            Entity found = tx.get(fence);
            check.accept(found);
            List<Entity> puts = writes.apply(found);
            if (!puts.isEmpty()) {
                tx.put(puts.toArray(new Entity[0]));
            }
            hook.beforeCommit(what);
            tx.commit();
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
        }
    }

    /** The job's last status, and its lease released, in one fenced transaction. */
    void finishJob(JobLease lease, JobStatus status, long wallMillis) {
        fencedOnJob("finish", lease, job -> List.of(Entity.newBuilder(job).set("status", status.name())
                .set("lastWallMillis", wallMillis).set("finishedAt", Timestamp.now()).build(), lease.released()));
    }

    /**
     * Writes a plan's root ranges in fenced batches of {@code batch}; the last transaction marks the job planned. Any
     * ranges of an earlier, unfinished plan are deleted first (nothing ran in them: ranges run once a job is planned).
     */
    void savePlan(JobLease lease, String jobId, List<RangeNode> roots, int batch, RetryPolicy policy) {
        List<Key> stale = policy.call(() -> {
            List<Key> keys = new ArrayList<>();
            datastore.run(Query.newKeyQueryBuilder().setNamespace("").setKind(RANGE_KIND)
                    .setFilter(PropertyFilter.eq("jobId", jobId)).build()).forEachRemaining(keys::add);
            return keys;
        });
        for (int i = 0; i < stale.size(); i += batch) {
            List<Key> slice = stale.subList(i, Math.min(stale.size(), i + batch));
            retries(policy, () -> fencedDelete(lease, slice));
        }
        for (int i = 0; i < roots.size(); i += batch) {
            List<Entity> slice = roots.subList(i, Math.min(roots.size(), i + batch)).stream()
                    .map(n -> nodeEntity(jobId, n)).toList();
            retries(policy, () -> fencedOnJob("plan", lease, job -> slice));
        }
        retries(policy, () -> fencedOnJob("plan", lease, job -> List.of(Entity.newBuilder(job).set("planned", true)
                .build())));
    }

    /**
     * Removes a job that could not be planned (an empty kind, a server error while planning): its ranges, then the job
     * and its lease in one fenced transaction, so that a failed start leaves nothing half-written behind.
     */
    void forget(JobLease lease, String jobId, RetryPolicy policy) {
        List<Key> ranges = policy.call(() -> {
            List<Key> keys = new ArrayList<>();
            datastore.run(Query.newKeyQueryBuilder().setNamespace("").setKind(RANGE_KIND)
                    .setFilter(PropertyFilter.eq("jobId", jobId)).build()).forEachRemaining(keys::add);
            return keys;
        });
        for (int i = 0; i < ranges.size(); i += 20) {
            List<Key> slice = ranges.subList(i, Math.min(ranges.size(), i + 20));
            retries(policy, () -> fencedDelete(lease, slice));
        }
        retries(policy, () -> fencedDelete(lease, List.of(lease.fenceKey(), lease.leaseKey())));
    }

    private void fencedDelete(JobLease lease, List<Key> keys) {
        Transaction tx = datastore.newTransaction();
        try {
            lease.check(tx.get(lease.fenceKey()));
            tx.delete(keys.toArray(new Key[0]));
            hook.beforeCommit("plan");
            tx.commit();
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
        }
    }

    private static void retries(RetryPolicy policy, Runnable operation) {
        policy.call(() -> {
            operation.run();
            return null;
        });
    }

    /** Whether the job's ranges were all written (jobs stored before this flag existed were). */
    static boolean isPlanned(Entity job) {
        return !job.contains("planned") || job.getBoolean("planned");
    }

    /** The stored spec of a job, or a clear error naming the job. */
    StoredJob loadJob(String jobId) {
        Entity job = datastore.get(jobKey(jobId));
        if (job == null) {
            throw new KeyRangerException("No job with id '" + jobId + "' in this database. Run 'keyranger jobs' to list "
                    + "the jobs there are.");
        }
        JobSpec spec = new JobSpec(jobId, job.getString("namespace"), job.getString("kind"),
                MapperSpec.parse(job.getString("mapper")), (int) job.getLong("shards"), (int) job.getLong("workers"),
                (int) job.getLong("pageSize"), (int) job.getLong("qps"));
        return new StoredJob(spec, JobStatus.valueOf(job.getString("status")),
                job.getTimestamp("createdAt").toDate().toInstant());
    }

    /**
     * A stored job.
     *
     * @param spec    its spec
     * @param status  its last persisted status
     * @param created when it was created
     */
    record StoredJob(JobSpec spec, JobStatus status, Instant created) {
    }

    /** Every job, newest first. */
    List<StoredJob> listJobs() {
        List<StoredJob> jobs = new ArrayList<>();
        Query<Entity> query = Query.newEntityQueryBuilder().setNamespace("").setKind(JOB_KIND).build();
        datastore.run(query).forEachRemaining(e -> {
            try {
                jobs.add(loadJob(e.getKey().getName()));
            } catch (RuntimeException ignored) {
                // an unreadable job entity is skipped, not fatal to the list
            }
        });
        jobs.sort((a, b) -> b.created().compareTo(a.created()));
        return jobs;
    }

    Entity nodeEntity(String jobId, RangeNode node) {
        Entity.Builder b = Entity.newBuilder(nodeKey(jobId, node.id))
                .set("jobId", jobId).set("nodeId", node.id).set("depth", node.depth)
                .set("epoch", lease == null ? 0 : lease.epoch())
                .set("parentId", node.parentId == null ? NullValue.of() : StringValue.of(node.parentId))
                .set("start", keyOrNull(node.range.start())).set("startInclusive", node.range.startInclusive())
                .set("end", keyOrNull(node.range.end())).set("lastKey", keyOrNull(node.lastKey()))
                .set("status", node.status.name()).set("pages", node.checkpoint.pages())
                .set("entities", node.checkpoint.entities()).set("retries", node.retries)
                .set("outputBytes", node.checkpoint.outputBytes())
                .set("lastError", node.lastError == null ? NullValue.of()
                        : StringValue.newBuilder(node.lastError).setExcludeFromIndexes(true).build());
        if (node.startedAt != null) {
            b.set("startedAt", Timestamp.ofTimeSecondsAndNanos(node.startedAt.getEpochSecond(), node.startedAt.getNano()));
        }
        if (node.finishedAt != null) {
            b.set("finishedAt", Timestamp.ofTimeSecondsAndNanos(node.finishedAt.getEpochSecond(),
                    node.finishedAt.getNano()));
        }
        return b.build();
    }

    static Key storedLastKey(Entity node) {
        return node.isNull("lastKey") ? null : node.getKey("lastKey");
    }

    /** Every node of a job, ordered by id. */
    List<RangeNode> loadNodes(String jobId, KeyOrder order, DatastoreReader reader) {
        Query<Entity> query = Query.newEntityQueryBuilder().setNamespace("").setKind(RANGE_KIND)
                .setFilter(PropertyFilter.eq("jobId", jobId)).setOrderBy(OrderBy.asc("nodeId")).build();
        List<RangeNode> nodes = new ArrayList<>();
        reader.run(query).forEachRemaining(e -> nodes.add(node(e, order)));
        return nodes;
    }

    private static RangeNode node(Entity e, KeyOrder order) {
        Key start = e.isNull("start") ? null : e.getKey("start");
        Key end = e.isNull("end") ? null : e.getKey("end");
        KeyRange range = KeyRange.of(order, start, end);
        if (start != null && !e.getBoolean("startInclusive")) {
            range = KeyRange.of(order, null, end).advancePast(start);
        }
        RangeNode node = new RangeNode(e.getString("nodeId"), e.isNull("parentId") ? null : e.getString("parentId"),
                (int) e.getLong("depth"), range);
        node.checkpoint = Checkpoint.of(e);
        node.status = NodeStatus.valueOf(e.getString("status"));
        node.retries = (int) e.getLong("retries");
        node.lastError = e.isNull("lastError") ? null : e.getString("lastError");
        node.startedAt = e.contains("startedAt") ? e.getTimestamp("startedAt").toDate().toInstant() : null;
        node.finishedAt = e.contains("finishedAt") ? e.getTimestamp("finishedAt").toDate().toInstant() : null;
        return node;
    }

    private static Value<?> keyOrNull(Key key) {
        return key == null ? NullValue.of() : KeyValue.of(key);
    }

    /**
     * Records a split: the parent (already in status SPLIT) and both children in one fenced transaction, so that a
     * crash never half-splits and a runner that was taken over cannot split at all. True also when an earlier attempt
     * of this runner whose answer was lost has committed it.
     */
    boolean saveSplit(JobLease lease, String jobId, RangeNode parent, RangeNode left, RangeNode right) {
        fencedOnRange("split", lease, jobId, parent.id, stored -> {
            if (NodeStatus.SPLIT.name().equals(stored.getString("status"))) {
                return List.of();
            }
            if (!java.util.Objects.equals(storedLastKey(stored), parent.lastKey())) {
                throw new KeyRangerException("Range " + parent.id + " of job " + jobId + " moved behind this run's "
                        + "back; it was not split.");
            }
            return List.of(nodeEntity(jobId, parent), nodeEntity(jobId, left), nodeEntity(jobId, right));
        });
        return true;
    }

    /** Records a node's final state (done, failed) in a fenced transaction. */
    void saveNode(JobLease lease, String jobId, RangeNode node) {
        fencedOnRange(node.status.name().toLowerCase(), lease, jobId, node.id, stored -> List.of(nodeEntity(jobId, node)));
    }

    /**
     * Stamps every range of the job that is not finished with this runner's epoch, in transactions of {@code batch}
     * ranges, and returns every range as stored after that. From then on a runner that held the job before can commit
     * nothing to them. Ranges it split off meanwhile (with its older epoch) are found and stamped in the next round.
     */
    List<RangeNode> claim(JobLease lease, String jobId, KeyOrder order, int batch, RetryPolicy policy) {
        for (int round = 0; round < 10_000; round++) {
            List<Entity> stored = policy.call(() -> {
                List<Entity> all = new ArrayList<>();
                datastore.run(Query.newEntityQueryBuilder().setNamespace("").setKind(RANGE_KIND)
                        .setFilter(PropertyFilter.eq("jobId", jobId)).build()).forEachRemaining(all::add);
                return all;
            });
            List<Key> unclaimed = stored.stream()
                    .filter(e -> !NodeStatus.valueOf(e.getString("status")).isFinal())
                    .filter(e -> !e.contains("epoch") || e.getLong("epoch") != lease.epoch())
                    .map(Entity::getKey).toList();
            if (unclaimed.isEmpty()) {
                List<RangeNode> nodes = new ArrayList<>(stored.stream().map(e -> node(e, order)).toList());
                nodes.sort((a, b) -> a.id.compareTo(b.id));
                return nodes;
            }
            for (int i = 0; i < unclaimed.size(); i += batch) {
                List<Key> slice = unclaimed.subList(i, Math.min(unclaimed.size(), i + batch));
                retries(policy, () -> claim(lease, slice));
            }
        }
        throw new KeyRangerException("Could not claim the ranges of job " + jobId + ": they keep changing.");
    }

    private void claim(JobLease lease, List<Key> nodes) {
        Transaction tx = datastore.newTransaction();
        try {
            List<Entity> puts = new ArrayList<>();
            for (Entity node : tx.fetch(nodes.toArray(new Key[0]))) {
                if (node == null) {
                    continue;
                }
                long stored = node.contains("epoch") ? node.getLong("epoch") : 0;
                if (stored > lease.epoch()) {
                    throw lease.fencedNow(); // taken over again meanwhile
                }
                puts.add(Entity.newBuilder(node).set("epoch", lease.epoch()).build());
            }
            tx.put(puts.toArray(new Entity[0]));
            hook.beforeCommit("claim");
            tx.commit();
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
        }
    }
}
