package io.keyranger.executor;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreReader;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.keys.KeyOrder;
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

    Datastore datastore() {
        return datastore;
    }

    Key jobKey(String jobId) {
        return datastore.newKeyFactory().setNamespace("").setKind(JOB_KIND).newKey(jobId);
    }

    Key nodeKey(String jobId, String nodeId) {
        return datastore.newKeyFactory().setNamespace("").setKind(RANGE_KIND).newKey(jobId + ":" + nodeId);
    }

    /** A new job's entity, not planned yet: its ranges are written next, then {@code planned} is set. */
    Entity.Builder newJobEntity(JobSpec spec, Instant created) {
        Entity.Builder job = Entity.newBuilder(jobKey(spec.jobId()));
        if (spec.group() != null) {
            job.set("group", spec.group());
        }
        return job
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
    java.util.Optional<Holding> holding(String jobId) {
        return Holding.read(datastore, jobKey(jobId), jobId);
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

    /**
     * In one transaction: reads {@code fence}, lets {@code check} refuse (by throwing), and puts what {@code writes}
     * makes of it; the hook sees {@code what} just before the commit.
     */
    void fenced(String what, Key fence, java.util.function.Consumer<Entity> check,
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
                io.keyranger.datastore.Retries.rollbackQuietly(tx);
            }
        }
    }

    /** The job's last status, and its lease released, in one fenced transaction. */
    void finishJob(JobLease lease, JobStatus status, long wallMillis) {
        fencedOnJob("finish", lease, job -> List.of(Entity.newBuilder(job).set("status", status.name())
                .set("lastWallMillis", wallMillis).set("finishedAt", Timestamp.now()).build(), lease.released()));
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
                (int) job.getLong("pageSize"), (int) job.getLong("qps"), job.contains("group") ? job.getString("group")
                : null);
        return new StoredJob(spec, JobStatus.valueOf(job.getString("status")),
                job.getTimestamp("createdAt").toDate().toInstant(),
                job.contains("runner") ? job.getString("runner") : null,
                job.contains("lastWallMillis") ? job.getLong("lastWallMillis") : 0);
    }

    /**
     * A stored job.
     *
     * @param spec    its spec
     * @param status  its last persisted status
     * @param created when it was created
     * @param runner  the distributed runner that works it ({@link SharedJob#BEAM}), or null for a local job
     * @param lastWallMillis how long its last run took, 0 before it ended once
     */
    record StoredJob(JobSpec spec, JobStatus status, Instant created, String runner, long lastWallMillis) {
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

    /** A range as its entity, with the epoch of this store's lease. */
    Entity nodeEntity(String jobId, RangeNode node) {
        return RangeEntities.toEntity(nodeKey(jobId, node.id), jobId, node, lease == null ? 0 : lease.epoch());
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
        addSubtrees(nodes);
        return nodes;
    }

    /**
     * Each node's subtree count from the persisted counts of its own pages and its descendants' (the running count a
     * job keeps lives only in the runner), so a stored or finished job shows what its ranges and their splits read.
     */
    private static void addSubtrees(List<RangeNode> nodes) {
        java.util.Map<String, RangeNode> byId = new java.util.HashMap<>();
        nodes.forEach(n -> byId.put(n.id, n));
        nodes.stream().sorted(java.util.Comparator.comparingInt((RangeNode n) -> n.depth).reversed()).forEach(n -> {
            n.subtreeEntities += n.checkpoint.entities();
            RangeNode parent = n.parentId == null ? null : byId.get(n.parentId);
            if (parent != null) {
                parent.subtreeEntities += n.subtreeEntities;
            }
        });
    }

    private static RangeNode node(Entity e, KeyOrder order) {
        return RangeEntities.toNode(e, order);
    }

    /**
     * Records a split: the parent (already in status SPLIT) and both children in one fenced transaction, so that a
     * crash never half-splits and a runner that was taken over cannot split at all. True also when an earlier attempt
     * of this runner whose answer was lost has committed it.
     */
    boolean saveSplit(JobLease lease, String jobId, RangeNode parent, List<RangeNode> children) {
        fencedOnRange("split", lease, jobId, parent.id, stored -> {
            if (NodeStatus.SPLIT.name().equals(stored.getString("status"))) {
                return List.of();
            }
            if (!java.util.Objects.equals(storedLastKey(stored), parent.lastKey())) {
                throw new KeyRangerException("Range " + parent.id + " of job " + jobId + " moved behind this run's "
                        + "back; it was not split.");
            }
            List<Entity> writes = new java.util.ArrayList<>();
            writes.add(nodeEntity(jobId, parent));
            children.forEach(child -> writes.add(nodeEntity(jobId, child)));
            return writes;
        });
        return true;
    }

    /** Records a node's final state (done, failed) in a fenced transaction. */
    void saveNode(JobLease lease, String jobId, RangeNode node) {
        fencedOnRange(node.status.name().toLowerCase(), lease, jobId, node.id, stored -> List.of(nodeEntity(jobId, node)));
    }
}
