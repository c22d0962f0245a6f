package io.keyranger.undo;

import io.keyranger.job.LeaseMode;
import io.keyranger.job.JobIds;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.executor.store.JobStore;
import io.keyranger.group.KindGroup;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.executor.Engine;
import io.keyranger.mapper.Mappers;
import io.keyranger.formats.undo.UndoRecords;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A job's undo data: whether it can be reverted and why not, the spec of the job that reverts it, and removing undo
 * data past its retention ({@code jobs --prune}).
 */
public final class JobUndo {
    /** How long undo data is kept by default: Firestore's point-in-time recovery window. */
    public static final Duration DEFAULT_KEEP = Duration.ofDays(7);
    private static final int DELETE_BATCH = 500;

    private JobUndo() {
    }

    /** Whether a job keeps undo records: it writes, and was not run with --no-undo. */
    public static boolean keepsUndo(JobSpec spec) {
        return Mappers.template(spec.mapper().template()).writes() && spec.mapper().undo();
    }

    /** What the job list says of a job's undo data. */
    public static String describe(JobStore.StoredJob job, Duration keep) {
        if (!Mappers.template(job.spec().mapper().template()).writes()) {
            return "";
        }
        if (!job.spec().mapper().undo()) {
            return "no undo (--no-undo): cannot be reverted";
        }
        if (job.undoRemoved() != null) {
            return "undo removed " + job.undoRemoved().toString().substring(0, 10) + ": cannot be reverted";
        }
        Instant from = job.finished() != null ? job.finished() : job.created();
        // a reverted job's status says by which revert and how far it went; its undo is kept for a revert --force
        return (job.revertedBy() != null ? "" : "revertible; ") + "undo kept until "
                + from.plus(keep).toString().substring(0, 10);
    }

    /**
     * Refuses, with a message a user can act on, a job that cannot be reverted (one left running is checked apart,
     * against its runner: {@link #revertible}).
     */
    public static void checkRevertible(JobStore.StoredJob job) {
        String id = job.spec().jobId();
        if (!Mappers.template(job.spec().mapper().template()).writes()) {
            throw new KeyRangerException("Job " + id + " (" + job.spec().mapper().template() + ") changed nothing: "
                    + "there is nothing to revert.");
        }
        if (!job.spec().mapper().undo()) {
            throw new KeyRangerException("Job " + id + " was run with --no-undo: it kept no undo records, so it "
                    + "cannot be reverted. Restore from a backup instead.");
        }
        if (job.undoRemoved() != null) {
            throw new KeyRangerException("Job " + id + "'s undo records were removed on " + job.undoRemoved()
                    + " (jobs --prune): it cannot be reverted any more.");
        }
    }

    /** The spec of a new job that reverts {@code job} with these settings (its id: theirs), one image a record. */
    public static JobSpec revertSpec(JobSpec job, RevertSettings settings) {
        return revertSpec(job, settings, 1);
    }

    /**
     * As above, for a job whose undo records hold about {@code imagesPerRecord} before-images each: the settings' page
     * size counts entities, so a page holds that many records fewer, and the revert fans out as widely as the job did.
     */
    public static JobSpec revertSpec(JobSpec job, RevertSettings settings, long imagesPerRecord) {
        int pageSize = (int) Math.max(1, settings.pageSize() / Math.max(1, imagesPerRecord));
        return new JobSpec(settings.revertId(), "", UndoRecords.kind(job.jobId()),
                Mappers.revertSpec(job.jobId(), settings.force()), settings.shards(), settings.workers(),
                pageSize, settings.qps());
    }

    /**
     * About how many before-images each undo record of {@code jobs} holds, from their counters (rounded, at least 1):
     * 1 for jobs recorded one record per entity, before images were counted.
     */
    public static long imagesPerRecord(Datastore datastore, List<JobStore.StoredJob> jobs) {
        long records = 0;
        long images = 0;
        for (JobStore.StoredJob job : jobs) {
            Map<String, Long> totals = ShardedCounter.existing(datastore, JobSpec.counterName(job.spec().jobId()))
                    .totals();
            long kept = totals.getOrDefault(JobResult.UNDO_RECORDS, 0L);
            records += kept;
            images += totals.getOrDefault(JobResult.UNDO_IMAGES, kept);
        }
        return records == 0 ? 1 : Math.max(1, Math.round((double) images / records));
    }

    /**
     * The jobs an id names: the job, or each kind's job of a job over several kinds (those it reached; a kind it never
     * started changed nothing).
     */
    public static List<JobStore.StoredJob> jobsOf(Datastore datastore, String id) {
        JobStore store = new JobStore(datastore);
        KindGroup.Plan group = KindGroup.load(datastore, id);
        if (group == null) {
            return List.of(store.loadJob(id));
        }
        List<JobStore.StoredJob> jobs = new ArrayList<>();
        for (int i = 0; i < group.kinds().size(); i++) {
            String child = KindGroup.childId(group.groupId(), i, group.kinds().get(i));
            if (datastore.get(store.jobKey(child)) != null) {
                jobs.add(store.loadJob(child));
            }
        }
        return jobs;
    }

    /**
     * The jobs that reverting {@code jobId} takes back (one, or each kind's of a job over several kinds), refused with a
     * message a user can act on when one of them cannot be reverted. A job left running whose runner is gone (killed,
     * its lease run out) is reverted as far as it ran; one whose runner is alive is refused.
     */
    public static List<JobStore.StoredJob> revertible(Datastore datastore, String jobId) {
        List<JobStore.StoredJob> jobs = jobsOf(datastore, jobId);
        if (jobs.isEmpty()) {
            throw new KeyRangerException("Job " + jobId + " never started any of its kinds: there is nothing to "
                    + "revert.");
        }
        jobs.forEach(JobUndo::checkRevertible);
        jobs.forEach(job -> RevertFence.checkEnded(datastore, job, jobId));
        return jobs;
    }

    /**
     * The settings of a revert job.
     *
     * @param revertId its id, or null before a request names it ({@code JobRequest.Revert})
     * @param force    restore entities changed since the job too
     */
    public record RevertSettings(String revertId, boolean force, int shards, int workers, int pageSize, int qps) {
        public static RevertSettings defaults() {
            return new RevertSettings(null, false, 16, 8, 200, 0);
        }

        /** These settings under the id {@code revertId}. */
        public RevertSettings named(String revertId) {
            return new RevertSettings(revertId, force, shards, workers, pageSize, qps);
        }
    }

    /**
     * Starts reverting {@code jobId} (a job, or every kind's job of a job over several kinds, kind after kind): a job of
     * its own over the job's undo records, refused with a clear message when the job cannot be reverted.
     */
    public static JobHandle startRevert(Engine launcher, String jobId,
            RevertSettings settings, JobListener listener,
            Consumer<String> waiting) {
        Datastore datastore = launcher.datastore();
        Objects.requireNonNull(settings.revertId(), "a revert is named by its request (JobRequest.Revert)");
        RevertSettings named = settings;
        List<JobStore.StoredJob> jobs = revertible(datastore, jobId);
        JobSpec first = revertSpec(jobs.get(0).spec(), named, imagesPerRecord(datastore, jobs));
        // everything that can refuse comes before the fence: a revert refused after it would leave the job
        // cancelled, never to be resumed, naming a revert that never ran
        launcher.executor().checkStartable(first);
        if (KindGroup.load(datastore, jobId) == null) {
            RevertFence.take(datastore, launcher.order(), launcher.limits(), jobs, jobId, named.revertId(), waiting);
            return launcher.start(first, LeaseMode.RESUME, listener, waiting);
        }
        List<String> kinds = jobs.stream().map(j -> UndoRecords.kind(j.spec().jobId())).toList();
        KindGroup.Plan group = KindGroup.create(datastore, named.revertId(), kinds, first);
        RevertFence.take(datastore, launcher.order(), launcher.limits(), jobs, jobId, named.revertId(), waiting);
        return KindGroup.run(launcher, group, LeaseMode.RESUME, listener, waiting);
    }

    /** A new revert job's id: "revert-JOB" and the time, within a job id's 100 characters. */
    public static String newRevertId(String jobId) {
        String base = "revert-" + jobId;
        return JobIds.newJobId(base.length() > 60 ? "revert" : base);
    }

    /**
     * One job's undo data removed.
     *
     * @param jobId   the job
     * @param records the undo record entities removed
     * @param images  the before-images they held (one per entity the job changed)
     */
    public record Pruned(String jobId, long records, long images) {
    }

    /**
     * What a prune did: the jobs whose undo data it removed, and those past their retention that it left, each with
     * why (a revert of it that has not ended done, or the job still running).
     */
    public record Pruning(List<Pruned> removed, Map<String, String> left) {
    }

    /**
     * Removes the undo records of every job that ended (or, never ended, was created) more than {@code keep} before
     * {@code now}, and marks each job so that it says it cannot be reverted. The mark comes first, in a transaction on
     * the job's entity (the fence a revert takes in a transaction of its own, refusing a marked job): a job still
     * running, or whose last revert has not ended done (starting, running, or stopped and resumable), is left alone,
     * so no revert ever reads records that are being deleted. A job marked by a prune that stopped halfway has the
     * records it left removed now.
     */
    public static Pruning prune(Datastore datastore, Duration keep, Instant now) {
        JobStore store = new JobStore(datastore);
        List<Pruned> pruned = new ArrayList<>();
        Map<String, String> left = new LinkedHashMap<>();
        for (JobStore.StoredJob job : store.listJobs()) {
            String id = job.spec().jobId();
            boolean resumed = job.undoRemoving(); // marked by a prune that stopped before its deletes ended
            if (!job.keptUndo() || job.undoRemoved() != null && !resumed) {
                continue;
            }
            if (!resumed) {
                Instant from = job.finished() != null ? job.finished() : job.created();
                if (from.plus(keep).isAfter(now)) {
                    continue;
                }
                String why = RetryPolicy.DEFAULT.call(() -> markRemoved(datastore, store, id));
                if (why != null) {
                    left.put(id, why);
                    continue;
                }
            }
            Pruned removed = removeRecords(datastore, id);
            RetryPolicy.DEFAULT.call(() -> removalEnded(datastore, store, id));
            if (!resumed || removed.records() > 0) {
                pruned.add(removed);
            }
        }
        return new Pruning(pruned, left);
    }

    /** Says on the job that every undo record of it is deleted, so that no later prune looks for them again. */
    private static Void removalEnded(Datastore datastore, JobStore store, String jobId) {
        Transaction tx = datastore.newTransaction();
        try {
            Entity job = tx.get(store.jobKey(jobId));
            if (job != null) {
                tx.put(Entity.newBuilder(job).remove(JobStore.UNDO_REMOVING).build());
            }
            tx.commit();
            return null;
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
        }
    }

    /**
     * Marks {@code jobId}'s undo records removed, in one transaction that finds the job not running and no revert of
     * it that has not ended done; else writes nothing and says why it left the job.
     */
    private static String markRemoved(Datastore datastore, JobStore store, String jobId) {
        Transaction tx = datastore.newTransaction();
        try {
            Entity job = tx.get(store.jobKey(jobId));
            if (job == null) {
                return "its job was deleted just now";
            }
            if (job.contains(JobStore.UNDO_REMOVED_AT)) {
                return "another prune is removing them";
            }
            if (JobStatus.RUNNING.name().equals(job.getString("status"))) {
                return "it is still running (or was left running: resume it or revert it first)";
            }
            if (job.contains(JobStore.REVERTED_BY)) {
                String revertId = job.getString(JobStore.REVERTED_BY);
                Key revert = revertOf(datastore, store, jobId, revertId);
                Entity reverting = revert == null ? null : tx.get(revert);
                if (reverting == null || !JobStatus.DONE.name().equals(reverting.getString("status"))) {
                    // a revert about to start (its fence taken, its job not yet made), running, or resumable
                    return "its revert " + revertId + " has not ended done, and reads these records: let it finish "
                            + "(or resume it: 'keyranger run --resume " + revertId + "', or 'keyranger revert "
                            + jobId + "' again), then prune";
                }
            }
            tx.put(Entity.newBuilder(job).set(JobStore.UNDO_REMOVED_AT, Timestamp.now())
                    .set(JobStore.UNDO_REMOVING, true).build());
            tx.commit();
            return null;
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
        }
    }

    /**
     * The job entity of the revert {@code revertId} that takes back {@code jobId}: that job's own, or, for a revert over
     * several kinds, the one of its kind jobs that reverts this job's records; null when a group's plan leaves it out.
     */
    private static Key revertOf(Datastore datastore, JobStore store, String jobId, String revertId) {
        KindGroup.Plan group = KindGroup.load(datastore, revertId);
        if (group == null) {
            return store.jobKey(revertId);
        }
        int index = group.kinds().indexOf(UndoRecords.kind(jobId));
        return index < 0 ? null : store.jobKey(KindGroup.childId(revertId, index, group.kinds().get(index)));
    }

    /**
     * Deletes every undo record of a job, in batches; returns how many there were and the images they held (counted
     * from their keys: {@link UndoRecords#imagesIn}).
     */
    static Pruned removeRecords(Datastore datastore, String jobId) {
        long removed = 0;
        long images = 0;
        while (true) {
            List<Key> batch = new ArrayList<>(DELETE_BATCH);
            datastore.run(Query.newKeyQueryBuilder().setNamespace("").setKind(UndoRecords.kind(jobId))
                    .setLimit(DELETE_BATCH).build()).forEachRemaining(batch::add);
            if (batch.isEmpty()) {
                return new Pruned(jobId, removed, images);
            }
            datastore.delete(batch.toArray(new Key[0]));
            removed += batch.size();
            images += batch.stream().mapToLong(UndoRecords::imagesIn).sum();
        }
    }
}
