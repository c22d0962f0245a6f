package io.keyranger.executor.store;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreReader;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.Retries;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.CellRecords;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.cells.RangeEntities;
import io.keyranger.executor.lease.Holding;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.executor.range.RangeNode;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.Pause;
import io.keyranger.job.RunRecord;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Job state in KeyRanger's own kinds of the same database, default namespace: {@code _KeyRangerJob/ID} holds the
 * spec and status, {@code _KeyRangerPlan/ID} its cells, {@code _KeyRangerRange/ID:cNNNN} each cell's ledger. Every
 * runner, local or on Beam, writes and reads the same records, so any of them can go on with a job.
 */
public final class JobStore {
    public static final String JOB_KIND = BookkeepingKinds.JOB;
    public static final String RANGE_KIND = RangeEntities.KIND;
    public static final String PLAN_KIND = BookkeepingKinds.PREFIX + "Plan";
    /** Whether a job's commits keep undo records (see {@link #keepsUndo}). */
    static final String KEEPS_UNDO = "keepsUndo";
    private static final String LAST_PAUSES = "lastPauses";

    private final Datastore datastore;
    private final EngineSeams seams;

    public JobStore(Datastore datastore) {
        this(datastore, EngineSeams.NONE);
    }

    public JobStore(Datastore datastore, EngineSeams seams) {
        this.datastore = datastore;
        this.seams = seams;
    }

    public Datastore datastore() {
        return datastore;
    }

    /** On a job's entity: the revert that took the job back; such a job is never resumed. */
    public static final String REVERTED_BY = JobLease.REVERTED_BY;
    /** When {@code jobs --prune} took the job's undo records (set before it deletes them): it cannot be reverted. */
    public static final String UNDO_REMOVED_AT = "undoRemovedAt";
    /** Set with {@link #UNDO_REMOVED_AT} and cleared once every record is deleted: a prune that stopped left some. */
    public static final String UNDO_REMOVING = "undoRemoving";

    public Key jobKey(String jobId) {
        return datastore.newKeyFactory().setNamespace("").setKind(JOB_KIND).newKey(jobId);
    }

    /** A new job's entity: it is created in one transaction with its plan ({@link JobPlans#take}). */
    public Entity.Builder newJobEntity(JobSpec spec, Instant created) {
        Entity.Builder job = Entity.newBuilder(jobKey(spec.jobId()));
        if (spec.group() != null) {
            job.set("group", spec.group());
        }
        return StoredInput.store(job, spec.mapper())
                .set("namespace", spec.namespace()).set("kind", spec.kind())
                .set("shards", spec.shards()).set("workers", spec.workers()).set("pageSize", spec.pageSize())
                .set("qps", spec.qps()).set("status", JobStatus.RUNNING.name())
                .set(KEEPS_UNDO, keepsUndo(spec.mapper()))
                .set("createdAt", Timestamp.ofTimeSecondsAndNanos(created.getEpochSecond(), created.getNano()));
    }

    /**
     * Whether a job with this spec keeps undo records: a built-in template that writes, undo not turned off. A mapper
     * given in code (tests, benchmarks) under a name of its own keeps none.
     */
    private static boolean keepsUndo(MapperSpec spec) {
        try {
            return Mappers.template(spec.template()).writes() && spec.undo();
        } catch (KeyRangerException notBuiltIn) {
            return false;
        }
    }

    /** A lease on a job, its fence being the job entity. */
    public JobLease lease(String jobId, Duration duration) {
        return JobLease.of(datastore, jobKey(jobId), jobId, "Job " + jobId, duration);
    }

    /** Who holds a job, if it was ever taken. */
    public Optional<Holding> holding(String jobId) {
        return Holding.read(datastore, jobKey(jobId), jobId);
    }

    /**
     * In one transaction: reads the job entity, checks that it is still {@code lease}'s, and puts what {@code writes}
     * makes of it. Throws {@link io.keyranger.executor.lease.JobFencedException} and writes nothing when the job was taken over.
     */
    public void fencedOnJob(String what, JobLease lease, Function<Entity, List<Entity>> writes) {
        fenced(what, lease.fenceKey(), lease::check, writes);
    }

    /**
     * In one transaction: reads {@code fence}, lets {@code check} refuse (by throwing), and puts what {@code writes}
     * makes of it; the seams' commit hook hears {@code what} just before the commit.
     */
    public void fenced(String what, Key fence, Consumer<Entity> check,
                        Function<Entity, List<Entity>> writes) {
        Transaction tx = datastore.newTransaction();
        try {
            Entity found = tx.get(fence);
            check.accept(found);
            List<Entity> puts = writes.apply(found);
            if (!puts.isEmpty()) {
                tx.put(puts.toArray(new Entity[0]));
            }
            seams.beforeCommit(what);
            tx.commit();
        } finally {
            if (tx.isActive()) {
                Retries.rollbackQuietly(tx);
            }
        }
    }

    /**
     * The job's last status, and its lease released, in one fenced transaction, with its last run's figures: how long
     * it ran, its pauses left out, when it stood paused, and when its time was taken ({@code timeTaken}: a chart of the
     * run drawn afterwards counts back from there, so the end is the moment the time was taken, not when this
     * transaction ran, which a slow or retried commit makes later), and the run as it ended ({@link RunRecord}: its
     * tree and chart, for Inspect).
     */
    public void finishJob(JobLease lease, JobStatus status, long wallMillis, Instant timeTaken, int ranges, int depth,
                          List<Pause> pauses, RunRecord run) {
        Entity record = RunRecords.entity(RunRecords.key(datastore, lease.fenceKey().getName()), timeTaken, run);
        fencedOnJob("finish", lease, job -> {
            Entity.Builder ended = Entity.newBuilder(job).set("status", status.name())
                    .set("lastWallMillis", wallMillis).set("lastRanges", ranges).set("lastDepth", depth)
                    .set("finishedAt", Timestamp.ofTimeSecondsAndNanos(timeTaken.getEpochSecond(),
                            timeTaken.getNano()))
                    .remove(LAST_PAUSES);
            if (!pauses.isEmpty()) {
                List<LongValue> bounds = new ArrayList<>();
                for (Pause pause : pauses) {
                    bounds.add(LongValue.newBuilder(pause.from().toEpochMilli()).setExcludeFromIndexes(true).build());
                    bounds.add(LongValue.newBuilder(pause.to().toEpochMilli()).setExcludeFromIndexes(true).build());
                }
                ended.set(LAST_PAUSES, ListValue.of(bounds));
            }
            return List.of(ended.build(), lease.released(), record);
        });
    }

    /** The job's last run as it ended ({@link #finishJob}), or null: it never ended here, or a Beam run ended since. */
    public RunRecord lastRun(StoredJob job) {
        return RunRecords.read(datastore, job.spec().jobId(), job.finished());
    }

    /** A job's last run's pauses, stored as their bounds in epoch milliseconds, from, to, from, to... */
    private static List<Pause> pauses(Entity job) {
        if (!job.contains(LAST_PAUSES)) {
            return List.of();
        }
        List<LongValue> bounds = job.getList(LAST_PAUSES);
        List<Pause> pauses = new ArrayList<>();
        for (int i = 0; i + 1 < bounds.size(); i += 2) {
            pauses.add(new Pause(Instant.ofEpochMilli(bounds.get(i).get()), Instant.ofEpochMilli(bounds.get(i + 1)
                    .get())));
        }
        return List.copyOf(pauses);
    }

    /** The stored spec of a job, or a clear error naming the job. */
    public StoredJob loadJob(String jobId) {
        StoredJob job = findJob(jobId);
        if (job == null) {
            throw new KeyRangerException("No job with id '" + jobId + "' in this database. Run 'keyranger jobs' to list "
                    + "the jobs there are.");
        }
        return job;
    }

    /** The stored job with this id, or null when there is none: one read of its entity. */
    public StoredJob findJob(String jobId) {
        Entity job = datastore.get(jobKey(jobId));
        if (job == null) {
            return null;
        }
        JobSpec spec = new JobSpec(jobId, job.getString("namespace"), job.getString("kind"),
                StoredInput.read(job), (int) job.getLong("shards"), (int) job.getLong("workers"),
                (int) job.getLong("pageSize"), (int) job.getLong("qps"), job.contains("group") ? job.getString("group")
                : null);
        return new StoredJob(spec, JobStatus.valueOf(job.getString("status")),
                job.getTimestamp("createdAt").toDate().toInstant(),
                runners(job),
                job.contains("lastWallMillis") ? job.getLong("lastWallMillis") : 0, pauses(job),
                job.contains("lastRanges") ? (int) job.getLong("lastRanges") : 0,
                job.contains("lastDepth") ? (int) job.getLong("lastDepth") : 0,
                instant(job, "finishedAt"), instant(job, UNDO_REMOVED_AT),
                job.contains(UNDO_REMOVING) && job.getBoolean(UNDO_REMOVING), job.getBoolean(KEEPS_UNDO), job.contains(REVERTED_BY) ? job.getString(REVERTED_BY) : null);
    }

    private static Instant instant(Entity job, String name) {
        return job.contains(name) && !job.isNull(name) ? job.getTimestamp(name).toDate().toInstant() : null;
    }

    /**
     * A stored job.
     *
     * @param spec    its spec
     * @param status  its last persisted status
     * @param created when it was created
     * @param runners the runners that worked on it, in the order they first did
     * @param lastWallMillis how long its last run took, its pauses left out, 0 before it ended once
     * @param lastPauses     when its last run stood paused, by the wall clock
     * @param lastRanges     the ranges its last local run's tree had (0: none recorded; a Beam run's are its cells)
     * @param lastDepth      that tree's depth
     * @param finished       when its last run ended, or null
     * @param undoRemoved    when its undo records were removed ({@code jobs --prune}), or null
     * @param undoRemoving   whether a prune marked them removed and has not yet deleted them all
     * @param keptUndo       whether its commits kept undo records
     * @param revertedBy     the id of the last revert that took it (a job, or a group of jobs), or null
     */
    public record StoredJob(JobSpec spec, JobStatus status, Instant created, List<String> runners, long lastWallMillis,
                     List<Pause> lastPauses, int lastRanges, int lastDepth, Instant finished, Instant undoRemoved,
                     boolean undoRemoving, boolean keptUndo, String revertedBy) {
    }

    private static List<String> runners(Entity job) {
        return job.<StringValue>getList("runners").stream().map(StringValue::get).toList();
    }

    /** Every job, newest first. */
    public List<StoredJob> listJobs() {
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

    public Key planKey(String jobId) {
        return datastore.newKeyFactory().setNamespace("").setKind(PLAN_KIND).newKey(jobId);
    }

    /** A job's plan as stored: its entity and, for a plan too big for one, its parts (see {@link PlanParts}). */
    public List<Entity> planEntities(String jobId, CellPlan cells, long estimate) {
        return PlanParts.entities(planKey(jobId), cells.bounds(), estimate);
    }

    /** A job's cells and estimate as planned (stored with the job, in one transaction), or null for no such job. */
    public JobPlans.Stored loadPlan(String jobId, KeyOrder order) {
        Entity plan = datastore.get(planKey(jobId));
        if (plan == null) {
            return null;
        }
        return new JobPlans.Stored(new CellPlan(order, PlanParts.bounds(datastore, plan)), plan.getLong("estimate"));
    }

    /** Every ledger of a job as stored. */
    public List<Entity> loadLedgers(String jobId, DatastoreReader reader) {
        Query<Entity> query = Query.newEntityQueryBuilder().setNamespace("").setKind(RANGE_KIND)
                .setFilter(PropertyFilter.eq("jobId", jobId)).build();
        List<Entity> ledgers = new ArrayList<>();
        reader.run(query).forEachRemaining(ledgers::add);
        return ledgers;
    }

    /**
     * Every cell of a job, in key order: as its ledger stores it, or queued when no commit reached it yet (none for a
     * job that does not exist).
     */
    public List<RangeNode> loadNodes(String jobId, KeyOrder order, DatastoreReader reader) {
        List<Entity> ledgers = loadLedgers(jobId, reader);
        JobPlans.Stored plan = loadPlan(jobId, order);
        List<RangeNode> nodes = new ArrayList<>();
        Map<Integer, List<Entity>> byCell = CellRecords.byCell(ledgers);
        for (int i = 0; plan != null && i < plan.cells().cells(); i++) {
            List<Entity> stored = byCell.get(i);
            KeyRange range = plan.cells().cell(i);
            nodes.add(stored != null ? CellRecords.node(CellPlan.nodeId(i), range, stored, order)
                    : new RangeNode(CellPlan.nodeId(i), null, 0, range));
        }
        nodes.forEach(n -> n.addToSubtree(n.entities()));
        return nodes;
    }
}
