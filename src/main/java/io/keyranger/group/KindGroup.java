package io.keyranger.group;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Value;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.executor.Engine;
import io.keyranger.executor.cells.PartFiles;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.local.RangeAttempts;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.LeaseMode;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.job.PauseGate;
import io.keyranger.job.ThroughputSampler;
import io.keyranger.mapper.MapperSpec;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One job over several kinds (or every kind of a namespace): a mapper run kind after kind, each kind its own tree of
 * ranges under a root named after it, with the workers of the job (never more at once). Each kind runs as a job of its
 * own, {@code GROUP.N-Kind}, so it has its checkpoints, exactly-once commits and resume (a job stored under that id
 * counts as the kind's only if it is this group's job over the kind); the group itself is stored as
 * {@code _KeyRangerJobGroup/GROUP} with its kinds in order, so {@code run --resume GROUP} finishes what is left,
 * kind by kind. An export over several kinds is one export: once every kind is done, the group joins every kind's
 * parts into its one file, or its one managed export listing every kind ({@link PartFiles#joinGroup}). KeyRanger's
 * bookkeeping kinds and Datastore's reserved {@code __*__} kinds are never in a group unless an export asks for them.
 */
public final class KindGroup {
    static final String GROUP_KIND = BookkeepingKinds.PREFIX + "JobGroup";
    private static final long POLL_MILLIS = 100;
    /** The longest job id ({@link JobSpec}). */
    private static final int MAX_ID = 100;

    private KindGroup() {
    }

    /**
     * A stored group.
     *
     * @param groupId the group's id
     * @param kinds   the kinds, in the order they run
     * @param spec    the job every kind runs (its kind and id are the first kind's and the group's)
     * @param created when the group was stored
     */
    public record Plan(String groupId, List<String> kinds, JobSpec spec, Instant created) {
        public Plan {
            kinds = List.copyOf(kinds);
        }

        /** The job over one of the kinds. */
        JobSpec child(int index) {
            String kind = kinds.get(index);
            return new JobSpec(childId(groupId, index, kind), spec.namespace(), kind, spec.mapper(), spec.shards(),
                    spec.workers(), spec.pageSize(), spec.qps(), groupId);
        }
    }

    /**
     * The id of a group's job over its {@code index}-th kind: the whole group id, the position and as much of the kind
     * as fits in a job id. The group id and the position are never cut, so two kinds of a group never share an id.
     */
    public static String childId(String groupId, int index, String kind) {
        String prefix = groupId + "." + (index + 1) + "-";
        if (prefix.length() >= MAX_ID) {
            throw new KeyRangerException("Job id '" + groupId + "' is too long for a job over " + (index + 1)
                    + " kinds: each kind's job is named after it, so give a --job-id of at most "
                    + maxGroupIdLength(index + 1) + " characters.");
        }
        String safe = kind.replaceAll("[^A-Za-z0-9_-]", "_");
        return prefix + safe.substring(0, Math.min(safe.length(), MAX_ID - prefix.length()));
    }

    /** The longest group id whose kinds' job ids keep the whole group id, the position and a kind's first letter. */
    public static int maxGroupIdLength(int kinds) {
        return MAX_ID - (".-x".length() + String.valueOf(kinds).length());
    }

    static Key groupKey(Datastore datastore, String groupId) {
        return datastore.newKeyFactory().setNamespace("").setKind(GROUP_KIND).newKey(groupId);
    }

    /** Stores a new group; an id in use (by a group or a job) is refused. */
    public static Plan create(Datastore datastore, String groupId, List<String> kinds, JobSpec spec) {
        if (kinds.isEmpty()) {
            throw new KeyRangerException("A job over several kinds needs at least one kind.");
        }
        JobStore store = new JobStore(datastore);
        if (datastore.get(store.jobKey(groupId)) != null) {
            throw new KeyRangerException("Job id '" + groupId + "' is taken: give another --job-id.");
        }
        if (groupId.length() > maxGroupIdLength(kinds.size())) {
            throw new KeyRangerException("Job id '" + groupId + "' is " + groupId.length() + " characters, too long "
                    + "for a job over " + kinds.size() + " kinds: each kind's job is named after it, so give a "
                    + "--job-id of at most " + maxGroupIdLength(kinds.size()) + " characters.");
        }
        Instant created = Instant.now();
        Plan plan = new Plan(groupId, kinds, spec, created);
        checkChildren(store, plan, null);
        List<Value<?>> names = kinds.stream().<Value<?>>map(StringValue::of).toList();
        Entity group = Entity.newBuilder(groupKey(datastore, groupId)).set("namespace", spec.namespace())
                .set("kinds", ListValue.of(names))
                .set("mapper", StringValue.newBuilder(spec.mapper().toJson()).setExcludeFromIndexes(true).build())
                .set("shards", spec.shards()).set("workers", spec.workers()).set("pageSize", spec.pageSize())
                .set("qps", spec.qps()).set("createdAt", Timestamp.ofTimeSecondsAndNanos(created.getEpochSecond(),
                        created.getNano())).build();
        try {
            datastore.add(group);
        } catch (DatastoreException e) {
            if (datastore.get(group.getKey()) != null) {
                throw new KeyRangerException("Job id '" + groupId + "' is taken: give another --job-id.");
            }
            throw e;
        }
        return plan;
    }

    /**
     * Checks the jobs already stored under the ids of a group's kinds, before anything of the group runs: each must be
     * that kind's job of this group, over its namespace with its mapper. A job of another group, a job of its own, or
     * one over another kind or with another mapper is refused by name: counting it as this kind's would skip the kind.
     *
     * @param created when the group was stored, or null for a group not stored yet (every child id must then be free)
     */
    private static void checkChildren(JobStore store, Plan plan, Instant created) {
        for (int i = 0; i < plan.kinds().size(); i++) {
            JobSpec child = plan.child(i);
            JobStore.StoredJob stored;
            try {
                stored = store.loadJob(child.jobId());
            } catch (KeyRangerException none) {
                continue;
            }
            String whose = stored.spec().group() != null ? "kind " + stored.spec().kind() + " of job " + stored.spec()
                    .group() : "its own job over " + stored.spec().kind();
            boolean ours = created != null && plan.groupId().equals(stored.spec().group())
                    && stored.spec().kind().equals(child.kind()) && stored.spec().namespace().equals(child.namespace())
                    && stored.spec().mapper().json().equals(child.mapper().json());
            if (!ours) {
                throw new KeyRangerException("Job id '" + child.jobId() + "', the id of this job's work on kind "
                        + child.kind() + ", is taken by another job (" + whose + ", " + stored.spec().mapper()
                        .template() + ", " + stored.status().name().toLowerCase() + "). Nothing was run: "
                        + (created == null ? "give another --job-id." : "resume that job on its own, or delete it "
                        + "with 'keyranger jobs', then resume this one."));
            }
        }
    }

    /** The stored group with this id, or null when there is none (a plain job id, say). */
    public static Plan load(Datastore datastore, String groupId) {
        Entity group = datastore.get(groupKey(datastore, groupId));
        if (group == null) {
            return null;
        }
        List<String> kinds = group.<StringValue>getList("kinds").stream().map(StringValue::get).toList();
        JobSpec spec = new JobSpec(groupId, group.getString("namespace"), kinds.get(0),
                MapperSpec.parse(group.getString("mapper")), (int) group.getLong("shards"),
                (int) group.getLong("workers"), (int) group.getLong("pageSize"), (int) group.getLong("qps"));
        return new Plan(groupId, kinds, spec, group.getTimestamp("createdAt").toDate().toInstant());
    }

    /**
     * Runs (or finishes) a group, kind after kind: a kind whose job is done is skipped, one that was started is
     * resumed, the others start. The listener sees one tree per kind; pause and cancel reach the kind running.
     */
    public static JobHandle run(Engine launcher, Plan plan, LeaseMode mode, JobListener listener,
                                Consumer<String> waiting) {
        checkChildren(new JobStore(launcher.datastore()), plan, plan.created());
        CompletableFuture<JobResult> result = new CompletableFuture<>();
        PauseGate gate = new PauseGate();
        // the group's chart: what its kinds read, over its running time
        AtomicLong read = new AtomicLong();
        long started = System.nanoTime();
        ThroughputSampler sampler = ThroughputSampler.start(plan.groupId(), read::get,
                () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started - gate.pausedNanos()));
        JobHandle group = new JobHandle(plan.groupId(), gate, result, sampler::points);
        JobListener counting = new ReadCounting(listener, read);
        Thread thread = new Thread(() -> {
            JobResult done;
            try {
                done = runKinds(launcher, plan, mode, counting, waiting, group);
            } catch (RuntimeException e) {
                done = new JobResult(plan.groupId(), JobStatus.FAILED, Map.of(), 0, 0, 0, 0,
                        e instanceof KeyRangerException ? e.getMessage() : RangeAttempts.describe(e));
            }
            sampler.close();
            listener.onFinished(done);
            result.complete(done);
        }, "keyranger-group-" + plan.groupId());
        thread.setDaemon(true);
        thread.start();
        return group;
    }

    private static JobResult runKinds(Engine launcher, Plan plan, LeaseMode mode, JobListener listener,
                                      Consumer<String> waiting, JobHandle group) {
        long started = System.nanoTime();
        Map<String, Long> totals = new HashMap<>();
        int ranges = 0;
        int depth = 0;
        int failedRanges = 0;
        JobStatus status = JobStatus.DONE;
        List<String> messages = new ArrayList<>();
        List<JobReport.ReasonGroup> failures = new ArrayList<>();
        List<JobReport.ReasonGroup> skips = new ArrayList<>();
        AdaptiveSplitExecutor executor = launcher.executor();
        for (int i = 0; i < plan.kinds().size(); i++) {
            String kind = plan.kinds().get(i);
            JobSpec child = plan.child(i);
            GroupTree tree = new GroupTree(plan.groupId(), kind, listener, totals);
            if (group.isCancelled()) {
                status = JobStatus.CANCELLED;
                tree.root(NodeStatus.CANCELLED, 0);
                continue;
            }
            JobStatus stored = storedStatus(executor, child.jobId());
            JobHandle handle;
            if (stored == JobStatus.DONE) {
                Map<String, Long> kindTotals = executor.totals(child.jobId());
                kindTotals.forEach((k, v) -> totals.merge(k, v, Long::sum));
                tree.root(NodeStatus.DONE, kindTotals.getOrDefault("read", 0L));
                continue;
            }
            tree.root(NodeStatus.RUNNING, 0);
            handle = stored == null ? launcher.start(child, mode, tree, waiting)
                    : launcher.resume(child.jobId(), mode, tree, waiting);
            JobResult kindResult = follow(handle, group);
            kindResult.report().failures().forEach(g -> failures.add(new JobReport.ReasonGroup(kind + ": " + g.reason(),
                    g.count(), g.examples(), g.permanent())));
            kindResult.report().skips().forEach(g -> skips.add(new JobReport.ReasonGroup(kind + ": " + g.reason(),
                    g.count(), g.examples(), g.permanent())));
            kindResult.totals().forEach((k, v) -> totals.merge(k, v, Long::sum));
            ranges += kindResult.ranges();
            depth = Math.max(depth, kindResult.maxDepth() + 1);
            failedRanges += kindResult.failedRanges();
            tree.root(kindResult.status() == JobStatus.DONE ? NodeStatus.DONE
                    : kindResult.status() == JobStatus.CANCELLED ? NodeStatus.CANCELLED : NodeStatus.FAILED,
                    kindResult.total("read"));
            if (kindResult.message() != null) {
                messages.add(kind + ": " + kindResult.message());
            }
            if (kindResult.status() != JobStatus.DONE) {
                status = kindResult.status();
                if (status != JobStatus.FAILED) {
                    break; // cancelled or taken over: the rest waits for a resume
                }
            }
        }
        Path output = null;
        if (status == JobStatus.DONE) {
            try {
                output = GroupExport.join(launcher, plan);
            } catch (RuntimeException e) {
                status = JobStatus.FAILED; // every kind's parts stay: a resume joins them
                messages.add("every kind is done, but the export could not be joined (resume the job to join it): "
                        + (e instanceof KeyRangerException ? e.getMessage() : RangeAttempts.describe(e)));
            }
        }
        listener.onTotals(Map.copyOf(totals));
        long ran = (System.nanoTime() - started - group.pausedNanos()) / 1_000_000; // pauses left out
        return new JobResult(plan.groupId(), status, totals, ranges, depth, ran, failedRanges,
                messages.isEmpty() ? null : String.join("; ", messages), new JobReport(failures, skips), output);
    }

    private static JobStatus storedStatus(AdaptiveSplitExecutor executor, String jobId) {
        try {
            return executor.status(jobId);
        } catch (KeyRangerException noSuchJob) {
            return null;
        }
    }

    /** Waits for a kind's job, passing the group's pause and cancel on to it. */
    private static JobResult follow(JobHandle child, JobHandle group) {
        boolean cancelled = false;
        while (true) {
            if (group.isCancelled() && !cancelled) {
                child.cancel();
                cancelled = true;
            }
            if (!cancelled) {
                if (group.isPaused() && !child.isPaused()) {
                    child.pause();
                } else if (!group.isPaused() && child.isPaused()) {
                    child.resume();
                }
            }
            try {
                return child.result().get(POLL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // still running
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                child.cancel();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }
    }

    /** Passes a group's events on, keeping its running count of entities read for its chart. */
    private record ReadCounting(JobListener out, AtomicLong read) implements JobListener {
        @Override
        public void onNode(NodeSnapshot node) {
            out.onNode(node);
        }

        @Override
        public void onTotals(Map<String, Long> totals) {
            read.set(totals.getOrDefault("read", 0L));
            out.onTotals(totals);
        }

        @Override
        public void onServerStatus(String problem) {
            out.onServerStatus(problem);
        }

        @Override
        public void onFinished(JobResult done) {
            out.onFinished(done);
        }
    }
}
