package io.keyranger.executor.local;

import io.keyranger.job.LeaseMode;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.executor.range.RangeProblems;
import io.keyranger.KeyRangerException;
import io.keyranger.job.MomentWatch;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.cells.KindSource;
import io.keyranger.executor.cells.ReadTimeMapper;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.cells.PageSource;
import io.keyranger.executor.cells.PageWork;
import io.keyranger.executor.cells.PartFiles;
import io.keyranger.executor.lease.Holding;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.executor.range.RangeNode;
import io.keyranger.executor.store.JobPlans;
import io.keyranger.executor.store.JobStore;
import io.keyranger.executor.store.PendingCells;
import io.keyranger.executor.store.RevertedJobs;
import io.keyranger.files.LocalFileStore;
import io.keyranger.job.ListedJob;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.PauseGate;
import io.keyranger.job.RetryPolicy;
import io.keyranger.job.WriteSafety;
import io.keyranger.executor.source.InputPlan;
import io.keyranger.executor.source.InputRun;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.PageMapper;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs a job on this machine by adaptive splitting: a page mapper over every entity of a kind, or over the entries of
 * a file (an import, a restore). The job's plan cuts its keys into cells; each range reads a page of keys, commits it
 * exactly once through its cells' ledgers, moves strictly past the last key, and after each page cuts its rest into
 * pieces where its {@link SplitPolicy} finds points (KeyRanger's splits only when that can shorten the job), so work
 * fans out as a tree. Concurrency is capped by a worker pool. The job, its plan and its ledgers are persisted (splits
 * live in the run's memory), so a job can be resumed after a crash from any machine, by this executor or by Beam.
 */
public final class AdaptiveSplitExecutor {
    public static final int COUNTER_SHARDS_PER_WORKER = 2;

    private final Datastore datastore;
    private final KeyOrder order;
    private final ServerLimits limits;
    private final RetryPolicy retries;
    private boolean readOnly;
    private boolean servesAtOnce;
    private SplitPolicy splitPolicy = SplitPolicy.ADAPTIVE;
    private Duration leaseDuration = JobLease.DEFAULT_DURATION;
    private EngineSeams seams = EngineSeams.NONE;
    private Function<JobSpec, MomentWatch> watching = spec -> MomentWatch.NONE;

    public AdaptiveSplitExecutor(Datastore datastore, KeyOrder order, ServerLimits limits) {
        this(datastore, order, limits, RetryPolicy.DEFAULT);
    }

    public AdaptiveSplitExecutor(Datastore datastore, KeyOrder order, ServerLimits limits, RetryPolicy retries) {
        this.datastore = datastore;
        this.order = order;
        this.limits = limits;
        this.retries = retries;
    }

    /** For benchmarks: how ranges split (KeyRanger's own is {@link SplitPolicy#ADAPTIVE}). */
    public AdaptiveSplitExecutor splitPolicy(SplitPolicy policy) {
        this.splitPolicy = policy;
        return this;
    }

    /** How long a runner's lease on its job lasts without renewal (renewed every third of it). */
    public AdaptiveSplitExecutor leaseDuration(Duration duration) {
        this.leaseDuration = duration;
        return this;
    }

    /** For tests and benchmarks: the hooks every job this executor starts or resumes runs with. */
    public AdaptiveSplitExecutor seams(EngineSeams value) {
        this.seams = value;
        return this;
    }

    /**
     * How each run watches its job's moments of the past as it goes ({@link io.keyranger.executor.JobReadTime#watch}):
     * a run whose moment leaves the server's window stops with that reason. None unless set.
     */
    public AdaptiveSplitExecutor watching(Function<JobSpec, MomentWatch> value) {
        this.watching = value;
        return this;
    }

    /**
     * Whether the server answers many requests at once ({@link io.keyranger.datastore.ServerType#servesAtOnce}): a new
     * job's calibration is then made beside its plan, not after it. False unless set: on a server that answers one
     * request at a time (the emulators), a calibration beside the plan would wait for the plan's queries and measure a
     * loaded latency.
     */
    public AdaptiveSplitExecutor servesAtOnce(boolean value) {
        this.servesAtOnce = value;
        return this;
    }

    /** Refuse mappers that write (a read-only connection); enforced here, not only in the UI. */
    public AdaptiveSplitExecutor readOnly(boolean value) {
        this.readOnly = value;
        return this;
    }

    private void checkWritable(PageMapper mapper) {
        if (readOnly && mapper.writes()) {
            throw WriteSafety.readOnly(mapper.name(), null);
        }
        if (mapper.outputFile() != null) {
            LocalFileStore.path(mapper.outputFile()); // refuses a cloud store's: Beam writes those
        }
    }

    /**
     * Refuses, before anything is written, what {@link #start} would refuse of {@code spec} before it runs: a bad spec,
     * a mapper that writes on a read-only connection, an id in use. For a caller that must not act (a revert fencing
     * the job it takes back) unless the job then starts.
     */
    public void checkStartable(JobSpec unbound) {
        JobSpec spec = unbound.bind(datastore.getOptions().getProjectId(), order);
        InputRun input = InputRun.of(spec);
        checkWritable(inputs(input, spec, null, input.order(order)).mapper());
        if (retrying(() -> datastore.get(new JobStore(datastore).jobKey(spec.jobId()))) != null) {
            throw new KeyRangerException("Job id '" + spec.jobId() + "' is taken: give another --job-id.");
        }
    }

    /** Plans the kind (or the file) a job reads, persists the job and its cells, and starts it. */
    public JobHandle start(JobSpec spec, JobListener listener) {
        return start(spec, null, listener);
    }

    /** Starts a job with a mapper built by the caller (tests; null: its template's); resuming it needs a template. */
    public JobHandle start(JobSpec unbound, PageMapper given, JobListener listener) {
        JobSpec spec = unbound.bind(datastore.getOptions().getProjectId(), order);
        InputRun input = InputRun.of(spec); // opened once: its pages and its plan read the same opening
        KeyOrder jobOrder = input.order(order);
        Inputs inputs = inputs(input, spec, given, jobOrder);
        checkWritable(inputs.mapper());
        JobStore store = new JobStore(datastore, seams);
        JobLease lease = store.lease(spec.jobId(), leaseDuration);
        // the plan is made while the job's id is looked up, a round trip less before the first page; an id in use
        // (refused below) leaves it unused, and its reads stop
        AtomicBoolean unused = new AtomicBoolean();
        CompletableFuture<JobPlans.Planned> planning = CompletableFuture.supplyAsync(
                () -> plan(input, spec, jobOrder, Cancellation.of(unused::get)), BESIDE);
        Calibration calibration = Calibration.start(inputs.source(), jobOrder, spec.jobId(),
                servesAtOnce ? CompletableFuture.completedFuture(null) : planning, BESIDE);
        Entity counter = ShardedCounter.created(datastore, JobSpec.counterName(spec.jobId()), counterShards(spec));
        JobPlans.Stored plan;
        try {
            // the job, its plan, its counter and its lease in one transaction: of two runs with the same new id, one
            // gets it
            plan = JobPlans.take(store, jobOrder, lease, LeaseMode.CREATE, spec, JobPlans.LOCAL,
                    () -> joined(planning), List.of(counter), m -> { });
        } finally {
            unused.set(true);
        }
        // a counter this transaction created counts nothing yet; one another runner created is read
        return run(spec, jobOrder, inputs, store, lease, plan.cells(), PageLoop.Covered.nothing(jobOrder),
                () -> joined(planning).starts(), () -> ShardedCounter.created(datastore, counter), lease.createdIt(),
                calibration, listener);
    }

    /**
     * Runs the job whose lease was just taken, from the ranges {@code starts} gives (read once the lease is held), in
     * the job's key order ({@code order}: its input's); {@code covered} says which spans are known committed, and
     * {@code counterNew} that the job's counter counts nothing yet (not read). A failure before the run starts releases
     * the lease.
     */
    private JobHandle run(JobSpec spec, KeyOrder order, Inputs inputs, JobStore store, JobLease lease,
                          CellPlan cells, PageLoop.Covered covered, Supplier<List<KeyRange>> starts,
                          Supplier<ShardedCounter> counters, boolean counterNew, Calibration calibration,
                          JobListener listener) {
        try {
            ShardedCounter counter = counters.get();
            PartFiles parts = PartFiles.of(LocalFileStore.INSTANCE, inputs.mapper(), spec.mapper(), spec.jobId(),
                    spec.namespace(), spec.kind(), spec.group(), datastore.getOptions().getProjectId());
            CellCommitter committer = retrying(() -> new CellCommitter(datastore, order, inputs.mapper(),
                    spec.jobId(), cells, limits, seams, parts, counter));
            PageWork work = new PageWork(datastore, spec, order, limits, inputs.mapper(), cells, committer, retries,
                    inputs.source(), seams);
            List<RangeNode> roots = roots(starts.get());
            return new JobRun(new RunContext(work, retries, store, lease, counter, covered, splitPolicy, parts,
                    listener, watching.apply(spec))).start(roots, roots, counterNew, calibration);
        } catch (RuntimeException e) {
            lease.ended();
            throw e;
        }
    }

    /**
     * Where what a job's start needs besides its transaction is done (a new job's plan, the server's calibration),
     * beside the thread that looks its id up: a thread of its own for each.
     */
    private static final Executor BESIDE = task -> {
        Thread thread = new Thread(task, "keyranger-start");
        thread.setDaemon(true);
        thread.start();
    };

    /** What {@code future} gave, or what it threw, as thrown. */
    private static <T> T joined(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException thrown) {
                throw thrown;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /**
     * Plans the job's starting ranges and its cells as its input plans them ({@link InputRun#plan}); nothing is
     * written. It stops once {@code cancellation} says so.
     */
    private JobPlans.Planned plan(InputRun input, JobSpec spec, KeyOrder order, Cancellation cancellation) {
        PlanRequest request = new PlanRequest(spec.namespace(), spec.kind(), spec.mapper().where(), spec.shards(),
                PlanRequest.DEFAULT_OVERSAMPLE);
        List<KeyRange> given = seams.initialRanges(request);
        InputPlan plan = given != null ? InputPlan.ranges(new ShardPlanner.RangePlan(given, List.of()))
                : retrying(() -> input.plan(datastore, LocalFileStore.INSTANCE, order, spec, request,
                cancellation));
        return JobPlans.plan(order, spec, plan);
    }

    /** What a job reads and its mapper. */
    private record Inputs(PageSource source, PageMapper mapper) {
    }

    /**
     * Where {@code spec}'s pages come from (a kind's keys, or an import's file) and its mapper ({@code given}, or its
     * template's), as this executor's seams give it.
     */
    private Inputs inputs(InputRun input, JobSpec spec, PageMapper given, KeyOrder order) {
        if (given != null) {
            PageMapper mapper = seams.mapper(ReadTimeMapper.of(datastore, spec, given));
            return new Inputs(new KindSource(datastore, spec, mapper), mapper);
        }
        InputRun.Pages pages = input.pages(datastore, LocalFileStore.INSTANCE, order, spec);
        return new Inputs(pages.source(), seams.mapper(pages.mapper()));
    }

    private static List<RangeNode> roots(List<KeyRange> ranges) {
        List<RangeNode> roots = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            roots.add(new RangeNode("r" + i, null, 0, ranges.get(i)));
        }
        return roots;
    }

    /** Continues a job from its ledgers; refused while another runner holds a live lease on it. */
    public JobHandle resume(String jobId, JobListener listener) {
        return resume(jobId, LeaseMode.RESUME, listener, message -> { });
    }

    /**
     * Continues a job from its ledgers, whichever runner started it (this executor, or a Beam pipeline): the cells
     * not done are worked again, skipping the spans their ledgers hold. {@code mode} says what to do when another
     * runner holds a live lease: refuse ({@link LeaseMode#RESUME}, a {@link io.keyranger.job.JobBusyException} naming it), wait
     * for it to run out ({@link LeaseMode#TAKE_OVER}, telling {@code waiting} now and then) or take the job at
     * once ({@link LeaseMode#TAKE_OVER_NOW}). A job that is done already is not run again: its handle is complete
     * at once.
     */
    public JobHandle resume(String jobId, LeaseMode mode, JobListener listener,
                            Consumer<String> waiting) {
        if (mode == LeaseMode.CREATE) {
            throw new IllegalArgumentException("resume does not create jobs");
        }
        JobStore store = new JobStore(datastore, seams);
        JobStore.StoredJob stored = retrying(() -> store.loadJob(jobId));
        if (stored.status() == JobStatus.DONE) {
            return finishedAlready(store, stored, listener);
        }
        JobSpec spec = stored.spec().bind(datastore.getOptions().getProjectId(), order);
        InputRun input = InputRun.of(spec);
        KeyOrder jobOrder = input.order(order);
        Inputs inputs = inputs(input, spec, null, jobOrder);
        checkWritable(inputs.mapper());
        JobLease lease = store.lease(jobId, leaseDuration);
        JobPlans.Stored plan = JobPlans.take(store, jobOrder, lease, mode, spec, JobPlans.LOCAL, null, List.of(),
                waiting);
        if (plan == null) {
            return finishedAlready(store, retrying(() -> store.loadJob(jobId)), listener);
        }
        PendingCells pending;
        try {
            pending = retrying(() -> PendingCells.read(store, jobId, plan.cells()));
        } catch (RuntimeException e) {
            lease.ended();
            throw e;
        }
        // once the lease is held (no other runner loads the server) and the ledgers are read
        Calibration calibration = Calibration.start(inputs.source(), jobOrder, jobId,
                CompletableFuture.completedFuture(null), BESIDE);
        return run(spec, jobOrder, inputs, store, lease, plan.cells(), pending::covered,
                () -> pending.ranges(spec.shards()),
                () -> retrying(() -> ShardedCounter.open(datastore, JobSpec.counterName(jobId), counterShards(spec))),
                false, calibration, listener);
    }

    /** The handle of a job that is done: nothing runs, the result is its stored one, as it finished. */
    private JobHandle finishedAlready(JobStore store, JobStore.StoredJob stored, JobListener listener) {
        String jobId = stored.spec().jobId();
        List<RangeNode> nodes = retrying(() -> store.loadNodes(jobId, orderOf(stored), datastore));
        Map<String, Long> totals = retrying(() -> ShardedCounter.existing(datastore, JobSpec.counterName(jobId)).totals());
        // the run's tree as it finished (its splits lived in memory); a job no local run finished shows its cells
        int ranges = stored.lastRanges() > 0 ? stored.lastRanges() : nodes.size();
        int depth = stored.lastRanges() > 0 ? stored.lastDepth() : 0;
        JobResult result = new JobResult(jobId, JobStatus.DONE, totals, ranges, depth, stored.lastWallMillis(), 0,
                "Job " + jobId
                + " is done already; nothing was run again.", RangeProblems.of(nodes, totals));
        nodes.forEach(n -> listener.onNode(n.snapshot(jobId)));
        listener.onFinished(result);
        return new JobHandle(jobId, new PauseGate(), CompletableFuture.completedFuture(result));
    }

    /** Jobs stored in this database, newest first. */
    public List<ListedJob> jobs() {
        JobStore store = new JobStore(datastore);
        List<JobStore.StoredJob> stored = store.listJobs();
        return stored.stream().map(j -> new ListedJob(j.spec(), j.status(), j.created(),
                j.status() == JobStatus.RUNNING ? store.holding(j.spec().jobId()).filter(Holding::live)
                        .map(h -> h.runner().describe()).orElse(null) : null, j.runners(),
                RevertedJobs.of(datastore, j, stored))).toList();
    }

    /** The persisted totals of a job. */
    public Map<String, Long> totals(String jobId) {
        new JobStore(datastore).loadJob(jobId);
        return ShardedCounter.existing(datastore, JobSpec.counterName(jobId)).totals();
    }

    /** What went wrong in a stored job, by reason, from its ranges' records and its counters. */
    public JobReport report(String jobId) {
        JobStore store = new JobStore(datastore);
        JobStore.StoredJob stored = store.loadJob(jobId);
        List<RangeNode> nodes = retrying(() -> store.loadNodes(jobId, orderOf(stored), datastore));
        return RangeProblems.of(nodes, retrying(() -> ShardedCounter.existing(datastore, JobSpec.counterName(jobId)).totals()));
    }

    /** A job's last persisted status (RUNNING while a runner, local or on Beam, works on it). */
    public JobStatus status(String jobId) {
        return new JobStore(datastore).loadJob(jobId).status();
    }

    /** The nodes of a job as persisted. */
    public List<NodeSnapshot> nodes(String jobId) {
        JobStore store = new JobStore(datastore);
        return store.loadNodes(jobId, orderOf(store.loadJob(jobId)), datastore).stream().map(n -> n.snapshot(jobId))
                .toList();
    }

    /** The key order of a stored job's ranges: its input's ({@link InputRun#order}). */
    private KeyOrder orderOf(JobStore.StoredJob stored) {
        return InputRun.of(stored.spec()).order(order);
    }

    /** Preparation outside any range, retried on transient errors like a page. */
    private <T> T retrying(Supplier<T> operation) {
        return retries.call(operation);
    }


    /** The shards of a job's counter: as many as its writers at once, within 4 and 100. */
    private static int counterShards(JobSpec spec) {
        return Math.min(100, Math.max(4, spec.workers() * COUNTER_SHARDS_PER_WORKER));
    }
}
