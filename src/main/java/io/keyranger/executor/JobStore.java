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

    JobStore(Datastore datastore) {
        this.datastore = datastore;
    }

    Key jobKey(String jobId) {
        return datastore.newKeyFactory().setNamespace("").setKind(JOB_KIND).newKey(jobId);
    }

    Key nodeKey(String jobId, String nodeId) {
        return datastore.newKeyFactory().setNamespace("").setKind(RANGE_KIND).newKey(jobId + ":" + nodeId);
    }

    Entity jobEntity(JobSpec spec, JobStatus status, Instant created) {
        return Entity.newBuilder(jobKey(spec.jobId()))
                .set("namespace", spec.namespace()).set("kind", spec.kind())
                .set("mapper", StringValue.newBuilder(spec.mapper().toJson()).setExcludeFromIndexes(true).build())
                .set("shards", spec.shards()).set("workers", spec.workers()).set("pageSize", spec.pageSize())
                .set("qps", spec.qps()).set("status", status.name())
                .set("createdAt", Timestamp.ofTimeSecondsAndNanos(created.getEpochSecond(), created.getNano()))
                .build();
    }

    void saveJob(JobSpec spec, JobStatus status, Instant created) {
        datastore.put(jobEntity(spec, status, created));
    }

    void setJobStatus(String jobId, JobStatus status, long wallMillis) {
        Entity job = datastore.get(jobKey(jobId));
        if (job != null) {
            datastore.put(Entity.newBuilder(job).set("status", status.name()).set("lastWallMillis", wallMillis)
                    .set("finishedAt", Timestamp.now()).build());
        }
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
                .set("parentId", node.parentId == null ? NullValue.of() : StringValue.of(node.parentId))
                .set("start", keyOrNull(node.range.start())).set("startInclusive", node.range.startInclusive())
                .set("end", keyOrNull(node.range.end())).set("lastKey", keyOrNull(node.lastKey))
                .set("status", node.status.name()).set("pages", node.pages).set("entities", node.entities)
                .set("retries", node.retries).set("outputBytes", node.outputBytes)
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
        node.lastKey = storedLastKey(e);
        node.status = NodeStatus.valueOf(e.getString("status"));
        node.pages = e.getLong("pages");
        node.entities = e.getLong("entities");
        node.retries = (int) e.getLong("retries");
        node.outputBytes = e.contains("outputBytes") ? e.getLong("outputBytes") : 0;
        node.lastError = e.isNull("lastError") ? null : e.getString("lastError");
        node.startedAt = e.contains("startedAt") ? e.getTimestamp("startedAt").toDate().toInstant() : null;
        node.finishedAt = e.contains("finishedAt") ? e.getTimestamp("finishedAt").toDate().toInstant() : null;
        return node;
    }

    private static Value<?> keyOrNull(Key key) {
        return key == null ? NullValue.of() : KeyValue.of(key);
    }

    /**
     * Records a split: the parent (already in status SPLIT) and both children in one transaction, so that a crash
     * never half-splits. True also when an earlier attempt whose answer was lost has committed it.
     */
    boolean saveSplit(String jobId, RangeNode parent, RangeNode left, RangeNode right) {
        com.google.cloud.datastore.Transaction tx = datastore.newTransaction();
        try {
            Entity stored = tx.get(nodeKey(jobId, parent.id));
            if (stored != null && NodeStatus.SPLIT.name().equals(stored.getString("status"))) {
                return true;
            }
            tx.put(nodeEntity(jobId, parent), nodeEntity(jobId, left), nodeEntity(jobId, right));
            tx.commit();
            return true;
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
        }
    }
}
