package io.keyranger.executor;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Value;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.mapper.MapperSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One job over several kinds (or every kind of a namespace): a mapper run kind after kind, each kind its own tree of
 * ranges under a root named after it, with the workers of the job (never more at once). Each kind runs as a job of its
 * own, {@code GROUP.N-Kind}, so it has its checkpoints, exactly-once commits and resume; the group itself is stored
 * as {@code _KeyRangerJobGroup/GROUP} with its kinds in order, so {@code run --resume GROUP} finishes what is left,
 * kind by kind. KeyRanger's bookkeeping kinds and Datastore's reserved {@code __*__} kinds are never in a group.
 */
public final class KindGroup {
    static final String GROUP_KIND = BookkeepingKinds.PREFIX + "JobGroup";
    private static final long POLL_MILLIS = 100;

    private KindGroup() {
    }

    /**
     * A stored group.
     *
     * @param groupId the group's id
     * @param kinds   the kinds, in the order they run
     * @param spec    the job every kind runs (its kind and id are the first kind's and the group's)
     */
    public record Plan(String groupId, List<String> kinds, JobSpec spec) {
        public Plan {
            kinds = List.copyOf(kinds);
        }

        /** The job over one of the kinds. */
        JobSpec child(int index) {
            String kind = kinds.get(index);
            return new JobSpec(childId(groupId, index, kind), spec.namespace(), kind, spec.mapper(), spec.shards(),
                    spec.workers(), spec.pageSize(), spec.qps());
        }
    }

    /** The id of a group's job over its {@code index}-th kind: the group id, the position and the kind. */
    static String childId(String groupId, int index, String kind) {
        String safe = kind.replaceAll("[^A-Za-z0-9_-]", "_");
        String id = groupId + "." + (index + 1) + "-" + safe;
        return id.length() <= 100 ? id : id.substring(0, 100);
    }

    /**
     * The kinds a job over {@code named} kinds (or all of them) runs over, checked: every named kind must exist in the
     * namespace, and none may be a bookkeeping or reserved kind. All kinds: those the namespace lists, without them.
     */
    public static List<String> kinds(Datastore datastore, String namespace, List<String> named, boolean all) {
        DatastoreGateway gateway = new DatastoreGateway(datastore);
        List<String> present = gateway.kinds(namespace, false);
        if (all) {
            if (present.isEmpty()) {
                throw new KeyRangerException("Namespace '" + namespace + "' has no kinds to map.");
            }
            return present;
        }
        LinkedHashSet<String> kinds = new LinkedHashSet<>();
        for (String kind : named) {
            String k = kind.strip();
            if (k.isEmpty()) {
                continue;
            }
            if (BookkeepingKinds.isHidden(k)) {
                throw new KeyRangerException("'" + k + "' is " + (k.startsWith("__") ? "a kind Datastore reserves"
                        : "KeyRanger's own bookkeeping") + " and is never mapped: leave it out of --kind.");
            }
            if (!present.contains(k)) {
                throw new KeyRangerException("Kind '" + k + "' was not found in namespace '" + namespace
                        + "'. Run 'keyranger kinds' to list the kinds there are.");
            }
            kinds.add(k);
        }
        if (kinds.isEmpty()) {
            throw new KeyRangerException("Name at least one kind: --kind A,B or --all-kinds.");
        }
        return List.copyOf(kinds);
    }

    static Key groupKey(Datastore datastore, String groupId) {
        return datastore.newKeyFactory().setNamespace("").setKind(GROUP_KIND).newKey(groupId);
    }

    /** Stores a new group; an id in use (by a group or a job) is refused. */
    public static Plan create(Datastore datastore, String groupId, List<String> kinds, JobSpec spec) {
        if (kinds.isEmpty()) {
            throw new KeyRangerException("A job over several kinds needs at least one kind.");
        }
        if (datastore.get(new JobStore(datastore).jobKey(groupId)) != null) {
            throw new KeyRangerException("Job id '" + groupId + "' is taken: give another --job-id.");
        }
        List<Value<?>> names = kinds.stream().<Value<?>>map(StringValue::of).toList();
        Entity group = Entity.newBuilder(groupKey(datastore, groupId)).set("namespace", spec.namespace())
                .set("kinds", ListValue.of(names))
                .set("mapper", StringValue.newBuilder(spec.mapper().toJson()).setExcludeFromIndexes(true).build())
                .set("shards", spec.shards()).set("workers", spec.workers()).set("pageSize", spec.pageSize())
                .set("qps", spec.qps()).set("createdAt", Timestamp.of(java.util.Date.from(Instant.now()))).build();
        try {
            datastore.add(group);
        } catch (com.google.cloud.datastore.DatastoreException e) {
            if (datastore.get(group.getKey()) != null) {
                throw new KeyRangerException("Job id '" + groupId + "' is taken: give another --job-id.");
            }
            throw e;
        }
        return new Plan(groupId, kinds, spec);
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
        return new Plan(groupId, kinds, spec);
    }

    /**
     * Runs (or finishes) a group, kind after kind: a kind whose job is done is skipped, one that was started is
     * resumed, the others start. The listener sees one tree per kind; pause and cancel reach the kind running.
     */
    public static JobHandle run(JobLauncher launcher, Plan plan, JobLease.Mode mode, JobListener listener,
                                Consumer<String> waiting) {
        CompletableFuture<JobResult> result = new CompletableFuture<>();
        PauseGate gate = new PauseGate();
        JobHandle group = new JobHandle(plan.groupId(), gate, result);
        Thread thread = new Thread(() -> {
            JobResult done;
            try {
                done = runKinds(launcher, plan, mode, listener, waiting, group);
            } catch (RuntimeException e) {
                done = new JobResult(plan.groupId(), JobStatus.FAILED, Map.of(), 0, 0, 0, 0,
                        e instanceof KeyRangerException ? e.getMessage() : RangeAttempts.describe(e));
            }
            listener.onFinished(done);
            result.complete(done);
        }, "keyranger-group-" + plan.groupId());
        thread.setDaemon(true);
        thread.start();
        return group;
    }

    private static JobResult runKinds(JobLauncher launcher, Plan plan, JobLease.Mode mode, JobListener listener,
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
            TreeForKind tree = new TreeForKind(plan.groupId(), kind, listener, totals);
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
        listener.onTotals(Map.copyOf(totals));
        return new JobResult(plan.groupId(), status, totals, ranges, depth, (System.nanoTime() - started) / 1_000_000,
                failedRanges, messages.isEmpty() ? null : String.join("; ", messages), new JobReport(failures, skips));
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
                return child.result().get(POLL_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // still running
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                child.cancel();
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }
    }

    /**
     * Passes one kind's job to the group's listener as a subtree: its nodes move under a root named after the kind
     * (ids {@code Kind/r3.1}), and its running totals are added to those of the kinds done before it.
     */
    private static final class TreeForKind implements JobListener {
        private final String groupId;
        private final String kind;
        private final JobListener out;
        private final Map<String, Long> before;
        private final Instant started = Instant.now();

        TreeForKind(String groupId, String kind, JobListener out, Map<String, Long> before) {
            this.groupId = groupId;
            this.kind = kind;
            this.out = out;
            this.before = Map.copyOf(before);
        }

        void root(NodeStatus status, long entities) {
            out.onNode(new NodeSnapshot(groupId, kind, null, 0, null, true, null, null, status, 0, entities, entities,
                    0, null, started, status.isFinal() ? Instant.now() : null));
        }

        @Override
        public void onNode(NodeSnapshot n) {
            out.onNode(new NodeSnapshot(groupId, kind + "/" + n.id(), n.parentId() == null ? kind
                    : kind + "/" + n.parentId(), n.depth() + 1, n.start(), n.startInclusive(), n.end(), n.lastKey(),
                    n.status(), n.pages(), n.entities(), n.subtreeEntities(), n.retries(), n.lastError(),
                    n.startedAt(), n.finishedAt()));
        }

        @Override
        public void onTotals(Map<String, Long> totals) {
            Map<String, Long> all = new HashMap<>(before);
            totals.forEach((k, v) -> all.merge(k, v, Long::sum));
            out.onTotals(all);
        }

        @Override
        public void onServerStatus(String problem) {
            out.onServerStatus(problem);
        }
    }
}
