package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.Cancellation;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Creates a {@link SharedJob}, or opens it. Of several launches with one new id, exactly one plans the cells: the job
 * entity is created in a transaction that names its planner, every batch of cells is written in a transaction that
 * checks the planner is still this launch, and the job is marked planned the same way. The others wait for the plan
 * and open it, so no launch can write cells over ledgers that pages already committed through. A planner whose beat
 * stands still for {@link #PLANNING_STALE} is replaced: its cells are deleted and planned again, and it can write
 * nothing more.
 */
final class SharedJobLaunch {
    /** How long a planner's beat may stand still before another launch replaces it. */
    static final Duration PLANNING_STALE = Duration.ofMinutes(2);
    private static final int SAMPLES_PER_CELL = 8;
    private static final int PUT_BATCH = 400;
    /** Cells written per planner transaction, with the job entity: within the emulator's 25 entity groups. */
    private static final int FENCED_BATCH = 24;
    private static final long WAIT_MILLIS = 250;
    private static final String PLANNER = "planner";
    private static final String BEAT = "plannerBeat";

    private SharedJobLaunch() {
    }

    /** {@link SharedJob#createOrOpen}, with a hook inside the creating transaction and the planner's time limit. */
    static SharedJob createOrOpen(Datastore datastore, KeyOrder order, JobSpec spec, String runner,
                                  Cancellation cancellation, CommitHook hook, Duration stale) {
        JobSpec bound = spec.bind(datastore.getOptions().getProjectId(), order);
        JobStore store = new JobStore(datastore);
        String token = UUID.randomUUID().toString();
        String seenBeat = null;
        long seenAt = 0;
        while (true) {
            cancellation.check();
            Claim claim = RetryPolicy.DEFAULT.call(() -> claim(store, bound, runner, token, hook, stale));
            if (claim.job() != null) {
                return open(datastore, order, bound, store, claim.job());
            }
            if (claim.planning()) {
                return plan(datastore, order, bound, store, token, cancellation);
            }
            // another launch is planning: wait for it, and replace it if its beat stops for too long
            String beat = claim.beat();
            if (!beat.equals(seenBeat)) {
                seenBeat = beat;
                seenAt = System.nanoTime();
            } else if (System.nanoTime() - seenAt > stale.toNanos()) {
                RetryPolicy.DEFAULT.call(() -> replace(store, bound.jobId(), beat, token));
                return plan(datastore, order, bound, store, token, cancellation);
            }
            sleep(WAIT_MILLIS);
        }
    }

    /**
     * What one look at the job decided: open it (planned), plan it (this launch created it), or wait for the launch
     * whose planning beat is {@code beat}.
     */
    private record Claim(Entity job, boolean planning, String beat) {
    }

    private static Claim claim(JobStore store, JobSpec spec, String runner, String token, CommitHook hook,
                               Duration stale) {
        Datastore datastore = store.datastore();
        Transaction tx = datastore.newTransaction();
        try {
            Entity existing = tx.get(store.jobKey(spec.jobId()));
            if (existing == null) {
                tx.put(store.newJobEntity(spec, Instant.now()).set("runner", runner).set(PLANNER, token)
                        .set(BEAT, token + ":0").build());
                hook.beforeCommit("create");
                tx.commit();
                return new Claim(null, true, null);
            }
            checkSameJob(store, existing, spec, runner);
            if (JobStore.isPlanned(existing)) {
                Entity running = Entity.newBuilder(existing).set("status", JobStatus.RUNNING.name()).build();
                tx.put(running);
                tx.commit();
                return new Claim(running, false, null);
            }
            if (!existing.contains(BEAT)) { // a launch from before planners were named, that stopped while planning
                tx.put(Entity.newBuilder(existing).set(PLANNER, token).set(BEAT, token + ":0").build());
                tx.commit();
                return new Claim(null, true, null);
            }
            return new Claim(null, false, existing.getString(BEAT));
        } finally {
            if (tx.isActive()) {
                io.keyranger.datastore.Retries.rollbackQuietly(tx);
            }
        }
    }

    private static void checkSameJob(JobStore store, Entity existing, JobSpec spec, String runner) {
        String storedRunner = existing.contains("runner") ? existing.getString("runner") : "the local executor";
        if (!runner.equals(storedRunner)) {
            throw new KeyRangerException("Job " + spec.jobId() + " was started by " + storedRunner
                    + ", not " + runner + ": resume it there ('keyranger run --resume " + spec.jobId()
                    + "'), or give this run another --jobId.");
        }
        JobSpec stored = store.loadJob(spec.jobId()).spec();
        if (!stored.kind().equals(spec.kind()) || !stored.namespace().equals(spec.namespace())
                || !stored.mapper().json().equals(spec.mapper().json())) {
            throw new KeyRangerException("Job " + spec.jobId() + " exists with another kind, namespace or "
                    + "mapper: a rerun must use the same spec, or give this run another --jobId.");
        }
    }

    /** Makes this launch the planner of a job whose planner's beat stood still at {@code beat}. */
    private static Void replace(JobStore store, String jobId, String beat, String token) {
        store.fenced("replace planner", store.jobKey(jobId), job -> {
            if (job == null || JobStore.isPlanned(job) || !beat.equals(job.getString(BEAT))) {
                throw new KeyRangerException("Job " + jobId + " moved on while this launch waited for its plan; "
                        + "launch again to open it.");
            }
        }, job -> List.of(Entity.newBuilder(job).set(PLANNER, token).set(BEAT, token + ":0").build()));
        return null;
    }

    private static SharedJob open(Datastore datastore, KeyOrder order, JobSpec spec, JobStore store, Entity job) {
        List<RangeNode> nodes = store.loadNodes(spec.jobId(), order, datastore);
        List<Key> bounds = new ArrayList<>();
        for (int i = 1; i < nodes.size(); i++) {
            bounds.add(nodes.get(i).range.start());
        }
        return new SharedJob(datastore, spec, new CellPlan(order, bounds),
                job.contains("estimate") ? job.getLong("estimate") : 0);
    }

    /** Plans the cells of a job this launch is the planner of, and writes them fenced by its token. */
    private static SharedJob plan(Datastore datastore, KeyOrder order, JobSpec spec, JobStore store, String token,
                                  Cancellation cancellation) {
        // cells a replaced planner left: no page committed through them, as the job was never planned
        List<Key> stale = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setNamespace("").setKind(JobStore.RANGE_KIND)
                .setFilter(PropertyFilter.eq("jobId", spec.jobId())).build()).forEachRemaining(stale::add);
        for (int i = 0; i < stale.size(); i += PUT_BATCH) {
            datastore.delete(stale.subList(i, Math.min(stale.size(), i + PUT_BATCH)).toArray(new Key[0]));
        }
        ShardPlanner.RangePlan plan = new ShardPlanner(datastore, order).planRanges(new PlanRequest(spec.namespace(),
                spec.kind(), spec.mapper().where(), Math.min(PlanRequest.MAX_SHARDS, spec.shards() * SharedJob.CELLS_PER_RANGE),
                SAMPLES_PER_CELL), cancellation);
        List<Key> bounds = new ArrayList<>();
        for (KeyRange range : plan.ranges().subList(1, plan.ranges().size())) {
            bounds.add(range.start());
        }
        CellPlan cells = new CellPlan(order, bounds);
        long estimate = Math.round(plan.samples().size() * 10_000.0 / 78);
        ShardedCounter.open(datastore, AdaptiveSplitExecutor.counterName(spec.jobId()), Math.max(8, spec.workers()));
        List<Entity> batch = new ArrayList<>();
        for (int i = 0; i < cells.cells(); i++) {
            batch.add(store.nodeEntity(spec.jobId(), new RangeNode(CellPlan.nodeId(i), null, 0, cells.cell(i))));
            if (batch.size() == FENCED_BATCH || i == cells.cells() - 1) {
                List<Entity> cellsNow = List.copyOf(batch);
                long written = i + 1;
                RetryPolicy.DEFAULT.call(() -> asPlanner(store, spec.jobId(), token, job -> {
                    List<Entity> puts = new ArrayList<>(cellsNow);
                    puts.add(Entity.newBuilder(job).set(BEAT, token + ":" + written).build());
                    return puts;
                }));
                batch.clear();
            }
        }
        RetryPolicy.DEFAULT.call(() -> asPlanner(store, spec.jobId(), token, job -> List.of(Entity.newBuilder(job)
                .set("estimate", estimate).set("planned", true).build())));
        return new SharedJob(datastore, spec, cells, estimate);
    }

    /** Puts what {@code writes} makes of the job entity, in a transaction that checks this launch is its planner. */
    private static Void asPlanner(JobStore store, String jobId, String token,
                                  java.util.function.Function<Entity, List<Entity>> writes) {
        store.fenced("plan", store.jobKey(jobId), job -> {
            if (job == null || !token.equals(job.contains(PLANNER) ? job.getString(PLANNER) : null)
                    || JobStore.isPlanned(job)) {
                throw new KeyRangerException("Another launch took over planning job " + jobId + " while this one "
                        + "stood still; this one wrote nothing more. Launch again to join the job.");
            }
        }, writes);
        return null;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeyRangerException("Interrupted while waiting for another launch to plan the job.", e);
        }
    }
}
