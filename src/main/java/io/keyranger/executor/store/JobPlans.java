package io.keyranger.executor.store;

import io.keyranger.job.LeaseMode;
import io.keyranger.job.ListedJob;
import com.google.cloud.datastore.Entity;
import com.google.common.base.Suppliers;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Value;
import io.keyranger.KeyRangerException;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.lease.JobFencedException;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.executor.source.InputPlan;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's cells, and the one way any runner creates or opens a job. The cells are cut at the scatter samples (and at
 * the bounds of the ranges a run starts from), fixed for the job's life, and stored on the job's plan entity. A new job
 * is created, with its plan and its lease, in one transaction: of several runners creating one id at the same moment
 * one creates it and the others open it (or are refused, as its lease says). No ledger exists yet; each is created by
 * the first commit in its cell.
 */
public final class JobPlans {
    private static final Logger LOG = LoggerFactory.getLogger(JobPlans.class);
    /** Entities per scatter sample: Datastore keeps a {@code __scatter__} value on about 1 in 128 entities. */
    public static final int ENTITIES_PER_SAMPLE = 128;
    /**
     * Most bytes of cell bounds on a plan (keys can be long): fewer, larger cells beyond that. The plan's parts
     * ({@code PlanParts}) and the job are written in one transaction, well within its 10 MiB.
     */
    public static final int MAX_BOUND_BYTES = 4_000_000;

    /** The runner name local runs record on the jobs they work on ({@code PipelineJobs.BEAM} is Beam's). */
    public static final String LOCAL = ListedJob.LOCAL;

    private JobPlans() {
    }

    /** A stored plan: the job's cells and its estimated entities. */
    public record Stored(CellPlan cells, long estimate) {
    }

    /** What a new job starts from: its cells, the ranges a run starts with, the samples, and its estimate. */
    public record Planned(CellPlan cells, List<KeyRange> starts, long estimate) {
    }

    /**
     * Cells for a job that starts from {@code starts}: bounds at the scatter samples (every m-th when there are more
     * than {@link #CellPlan.MAX_CELLS} or their keys are long) and at the starting ranges' bounds, so that every starting range
     * is whole cells and a split at a sample never puts two ranges in one cell.
     */
    public static Planned plan(KeyOrder order, List<KeyRange> starts, List<Key> samples) {
        long bytes = samples.stream().mapToLong(k -> k.toUrlSafe().length()).sum();
        int stride = (int) Math.max(1, Math.max(Math.ceil(samples.size() / (double) CellPlan.MAX_CELLS),
                Math.ceil(bytes / (double) MAX_BOUND_BYTES)));
        TreeSet<Key> bounds = new TreeSet<>(order);
        for (int i = stride - 1; i < samples.size(); i += stride) {
            bounds.add(samples.get(i));
        }
        for (KeyRange range : starts) {
            if (range.start() != null) {
                bounds.add(range.start());
            }
            if (range.end() != null) {
                bounds.add(range.end());
            }
        }
        long estimate = Math.max(samples.size(), 1L) * ENTITIES_PER_SAMPLE;
        return new Planned(new CellPlan(order, new ArrayList<>(bounds)), starts, estimate);
    }

    /** {@code planned} with the entities its input counted as its estimate, when it counted them (not -1). */
    private static Planned counted(Planned planned, long entities) {
        return entities < 0 ? planned : new Planned(planned.cells(), planned.starts(), entities);
    }

    /**
     * What a new job starts from as its input planned it ({@link InputPlan}): cells a file's input cut along its bytes
     * with the entries its check counted, or else cells cut at the scatter samples of its ranges ({@link #plan}).
     */
    public static Planned plan(KeyOrder order, JobSpec spec, InputPlan input) {
        Planned planned = input.cells() == null ? counted(plan(order, input.starts(), input.samples()), input.entries())
                : new Planned(input.cells(), input.starts(), input.entries());
        LOG.info("Job {}: planned {} ranges over {} cells", spec.jobId(), planned.starts().size(),
                planned.cells().cells());
        return planned;
    }

    /**
     * Takes job {@code spec} for runner {@code runnerName} ("local", "beam") as {@code mode} says. A job that does not
     * exist is created, with the plan {@code planner} makes, the entities {@code createdWith} (its counter) and its
     * lease, in one transaction ({@code planner} null: it must exist). A stored job with another kind, namespace or
     * mapper is refused. In {@link LeaseMode#CREATE} nothing is read before that transaction, whose first read may go
     * on while {@code planner} is still planning: the plan is asked for once the job is known not to exist.
     *
     * @return the job's plan as stored (this one's, or the creator's), or null when the job is done already
     */
    public static Stored take(JobStore store, KeyOrder order, JobLease lease, LeaseMode mode, JobSpec spec,
                       String runnerName, Supplier<Planned> planner, List<Entity> createdWith,
                       Consumer<String> waiting) {
        boolean creating = mode == LeaseMode.CREATE && planner != null;
        Entity existing = creating ? null
                : RetryPolicy.DEFAULT.call(() -> store.datastore().get(store.jobKey(spec.jobId())));
        Stored plan = existing == null ? null : RetryPolicy.DEFAULT.call(() -> store.loadPlan(spec.jobId(), order));
        Supplier<Planned> planned = planner == null ? null : Suppliers.memoize(planner::get);
        Supplier<JobLease.Creation> creation = existing != null || planner == null ? null
                : Suppliers.memoize(() -> creation(store, spec, runnerName, planned.get(), createdWith));
        if (existing != null && mode != LeaseMode.CREATE) {
            checkSameJob(store, spec);
        }
        boolean taken = lease.take(mode, fence -> {
            if (fence == null && planner == null) {
                throw new KeyRangerException("Job " + spec.jobId() + " no longer exists.");
            }
            if (fence != null && fence.contains(JobStore.REVERTED_BY)) {
                throw JobFencedException.notResumable("Job " + spec.jobId(),
                        fence.getString(JobStore.REVERTED_BY), "Start a new job instead.");
            }
            return fence == null || !JobStatus.DONE.name().equals(fence.getString("status"));
        }, b -> b.set("status", JobStatus.RUNNING.name()).set("runners", runners(b.build(), runnerName)), creation,
                waiting);
        if (!taken) {
            return null;
        }
        if (plan != null) {
            return plan;
        }
        if (lease.createdIt()) {
            return new Stored(planned.get().cells(), planned.get().estimate()); // as written, in this transaction
        }
        // created by another runner between the look and the take, or by an attempt whose answer was lost
        return RetryPolicy.DEFAULT.call(() -> store.loadPlan(spec.jobId(), order));
    }

    /** What creates job {@code spec}: the job, its plan's entities and {@code with}. */
    private static JobLease.Creation creation(JobStore store, JobSpec spec, String runnerName, Planned planned,
                                              List<Entity> with) {
        List<Entity> entities = new ArrayList<>(store.planEntities(spec.jobId(), planned.cells(), planned.estimate()));
        entities.addAll(with);
        return new JobLease.Creation(store.newJobEntity(spec, Instant.now()).set("runners", runners(null, runnerName)),
                entities);
    }

    /** The runners that worked on a job: those stored, with {@code runnerName} added once. */
    private static ListValue runners(Entity job, String runnerName) {
        List<Value<?>> out = new ArrayList<>();
        if (job != null) {
            out.addAll(job.<StringValue>getList("runners"));
        }
        if (out.stream().noneMatch(v -> runnerName.equals(v.get()))) {
            out.add(StringValue.of(runnerName));
        }
        return ListValue.of(out);
    }

    private static void checkSameJob(JobStore store, JobSpec spec) {
        JobSpec stored = RetryPolicy.DEFAULT.call(() -> store.loadJob(spec.jobId())).spec();
        if (!stored.kind().equals(spec.kind()) || !stored.namespace().equals(spec.namespace())
                || !stored.mapper().json().equals(spec.mapper().json())) {
            throw new KeyRangerException("Job " + spec.jobId() + " exists with another kind, namespace or mapper: "
                    + "continuing it must use the same spec ('keyranger jobs' shows it), or give this run another id.");
        }
    }
}
