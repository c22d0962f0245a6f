package io.keyranger.bench;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.Session;
import io.keyranger.executor.Engine;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.summary.ProcessCpu;
import io.keyranger.testhooks.FaultInjector;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobListener;
import io.keyranger.job.RetryPolicy;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.launch.JobRequest;
import io.keyranger.job.JobStatus;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;
import io.keyranger.undo.JobUndo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Runs the same job, an increment of n by 1 through the exactly-once path, with each strategy on a fresh kind of the
 * same shape, behind the same simulated per-call latency, and checks every entity afterwards.
 */
public final class BenchRunner {
    private static final String MAPPER = "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}";

    private final Datastore datastore;
    private final KeyOrder order;
    private final ServerLimits limits;
    private final Consumer<String> log;
    private Consumer<Boolean> serverQuiet;
    private LongSupplier serverCalls;
    private Session reverting;
    private PipelineJvms pipelineJvms;
    private boolean servesAtOnce;

    public BenchRunner(Datastore datastore, KeyOrder order, ServerLimits limits, Consumer<String> log) {
        this.datastore = datastore;
        this.order = order;
        this.limits = limits;
        this.log = log;
    }

    /**
     * For a server that makes its own latency (the production model): no latency is added on the client, and
     * {@code quiet} is told when the clock does not run (seeding, the oracle's listing, checking), so that only the
     * job itself waits on the server's latency and capacity; {@code calls} counts the server's calls while not quiet.
     */
    public BenchRunner serverSideLatency(Consumer<Boolean> quiet, LongSupplier calls) {
        this.serverQuiet = quiet;
        this.serverCalls = calls;
        return this;
    }

    /**
     * The JVMs that a Beam strategy's pipelines run in, kept by the caller across runs (a bench's rounds); without
     * them, each run's pipeline gets a JVM of its own, without flags, ended after it.
     */
    public BenchRunner pipelineJvms(PipelineJvms jvms) {
        this.pipelineJvms = jvms;
        return this;
    }

    /** Whether the server answers many requests at once, as the executor is told ({@code AdaptiveSplitExecutor}). */
    public BenchRunner servesAtOnce(boolean value) {
        this.servesAtOnce = value;
        return this;
    }

    /**
     * After each timed run of a strategy that keeps undo, reverts its job with the product's own revert
     * ({@link JobUndo#startRevert}) over {@code session} (this runner's server), with the run's workers, shards and
     * page size, times it and checks that every entity reads back as it was seeded.
     */
    public BenchRunner reverting(Session session) {
        this.reverting = session;
        return this;
    }

    private void quiet(boolean value) {
        if (serverQuiet != null) {
            serverQuiet.accept(value);
        }
    }

    /**
     * What to run.
     *
     * @param shape     the dataset shape
     * @param entities  entities per strategy
     * @param workers   the concurrency cap
     * @param pageSize  keys per page
     * @param latencyMs simulated latency per Datastore call
     * @param offsetCap most entities the offset baseline really runs
     * @param shards    planned ranges for the adaptive strategy, 0 for one per worker (fixed uses one per worker)
     * @param warmup    entities of an untimed run of the same strategy before each timed one (JIT of this JVM and
     *                  of the emulator; a Beam strategy's in its pipeline's JVM), 0 for none
     */
    public record Settings(BenchShape shape, int entities, int workers, int pageSize, int latencyMs, int offsetCap,
                           int shards, int warmup, int linearCap) {
        public Settings(BenchShape shape, int entities, int workers, int pageSize, int latencyMs, int offsetCap,
                        int shards, int warmup) {
            this(shape, entities, workers, pageSize, latencyMs, offsetCap, shards, warmup, 0);
        }
    }

    /** appengine-mapreduce and Beam read 32 scatter keys per split; the fixed baseline plans as they do. */
    static final int FIXED_OVERSAMPLE = 32;

    public BenchResult run(BenchStrategy strategy, Settings settings) throws InterruptedException {
        if (strategy == BenchStrategy.OFFSET && settings.entities() > settings.offsetCap()) {
            // quadratic: measure two capped sizes and fit t(n) = a n + b n^2
            int small = Math.max(settings.pageSize(), settings.offsetCap() / 2);
            BenchResult half = once(strategy, settings, small);
            BenchResult full = once(strategy, settings, settings.offsetCap());
            double n1 = small;
            double n2 = settings.offsetCap();
            double b = (full.wallMillis() / n2 - half.wallMillis() / n1) / (n2 - n1);
            double a = full.wallMillis() / n2 - b * n2;
            double n = settings.entities();
            long predicted = Math.round(Math.max(a * n + b * n * n, full.wallMillis() * n / n2));
            return new BenchResult(strategy.id(), full.entities(), predicted, n * 1000.0 / predicted, full.reads(),
                    full.commits(), 0, full.tailShare(), full.verified() && half.passed(), true)
                    .withCosts(full.costs());
        }
        if (strategy == BenchStrategy.LINEAR && settings.linearCap() > 0 && settings.entities() > settings.linearCap()) {
            // one worker, one page after another: time grows in proportion to the entities
            BenchResult capped = once(strategy, settings, settings.linearCap());
            double n = settings.entities();
            long predicted = Math.round(capped.wallMillis() * n / settings.linearCap());
            return new BenchResult(strategy.id(), capped.entities(), predicted, n * 1000.0 / predicted, capped.reads(),
                    capped.commits(), 0, capped.tailShare(), capped.verified(), true, capped.heapPeakKb(),
                    capped.heapRetainedKb()).withCosts(capped.costs());
        }
        return once(strategy, settings, settings.entities());
    }

    private BenchResult once(BenchStrategy strategy, Settings settings, int entities) throws InterruptedException {
        int warmup = Math.min(settings.warmup(), entities);
        if (warmup > 0 && strategy.beam()) {
            // a pipeline's JVM is warmed up by a pipeline of its own before the timed one
            quiet(true);
            String warmKind = kind(strategy, warmup);
            put(datastore, settings.shape().entities(datastore.newKeyFactory().setKind(warmKind), warmup, 42));
            return execute(strategy, settings, entities, true, warmKind);
        }
        if (warmup > 0) {
            execute(strategy, settings, warmup, false, null);
        }
        return execute(strategy, settings, entities, true, null);
    }

    private static String kind(BenchStrategy strategy, int entities) {
        return "Bench_" + strategy.id().replace('-', '_') + "_" + entities + "_" + System.nanoTime() % 100_000;
    }

    private BenchResult execute(BenchStrategy strategy, Settings settings, int entities, boolean timed,
                                String beamWarmKind) throws InterruptedException {
        String kind = kind(strategy, entities);
        KeyFactory factory = datastore.newKeyFactory().setKind(kind);
        BenchShape shape = settings.shape();
        quiet(true);
        List<Entity> data = shape.entities(factory, entities, 42);
        long selected = data.stream().filter(shape::selects).count();
        put(datastore, data);
        String mapperJson = MAPPER.replace("}", shape.whereJson() + "}");
        if (strategy.beam()) {
            return executeBeam(strategy, settings, kind, beamWarmKind, mapperJson, data.size(), selected, timed);
        }
        MapperSpec mapper = MapperSpec.parse(mapperJson);
        if (strategy == BenchStrategy.ADAPTIVE_NO_UNDO) {
            mapper = mapper.withoutUndo();
        }
        int shards = settings.shards() > 0 ? settings.shards() : settings.workers();
        int workers = settings.workers();
        FaultInjector latency = new FaultInjector(0, 0, serverQuiet != null ? 0 : settings.latencyMs(), 1);
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(latency.wrap(datastore), order, limits)
                .servesAtOnce(servesAtOnce);
        switch (strategy) {
            case LINEAR -> {
                executor.splitPolicy(Baselines.NONE);
                shards = 1;
                workers = 1;
            }
            case OFFSET -> {
                executor.splitPolicy(Baselines.NONE).seams(EngineSeams.NONE.withPagesByOffset()
                        .withInitialRanges(r -> List.of(KeyRange.all(order))));
                shards = 1;
                workers = 1;
            }
            case FIXED -> {
                executor.splitPolicy(Baselines.NONE).seams(EngineSeams.NONE.withInitialRanges(
                        r -> new ShardPlanner(datastore, order).planRanges(new PlanRequest(r.namespace(), r.kind(),
                                r.filters(), settings.workers(), FIXED_OVERSAMPLE), Cancellation.NEVER).ranges()));
                shards = workers;
            }
            case ADAPTIVE_MIDPOINT -> executor.splitPolicy(Baselines.MIDPOINT)
                    .seams(EngineSeams.NONE.withInitialRanges(r -> List.of(KeyRange.all(order))));
            case ORACLE -> {
                List<KeyRange> chunks = equalChunks(kind, mapper.where(), workers);
                executor.splitPolicy(Baselines.NONE).seams(EngineSeams.NONE.withInitialRanges(r -> chunks));
            }
            default -> { }
        }
        JobSpec spec = new JobSpec(kind, "", kind, mapper, shards, workers, settings.pageSize(), 0);
        // what the revert must bring back, read before the job (untimed)
        KindDigest seeded = timed && reverting != null && JobUndo.keepsUndo(spec) ? KindDigest.of(datastore, kind)
                : null;
        quiet(false);
        HeapWatch heap = new HeapWatch();
        long readsBefore = calls(latency);
        long commitsBefore = latency.calls("commit");
        long serverCallsBefore = serverCalls();
        ProcessCpu cpuBefore = ProcessCpu.now();
        AtomicLong tailStart = new AtomicLong();
        long threshold = Math.round(selected * 0.95);
        Newcomers writer = new Newcomers(datastore, shape.newcomers(factory, entities));
        long started = System.nanoTime();
        JobResult result;
        try {
            writer.start();
            result = executor.start(spec, new JobListener() {
                @Override
                public void onTotals(Map<String, Long> totals) {
                    if (totals.getOrDefault("read", 0L) >= threshold) {
                        tailStart.compareAndSet(0, System.nanoTime());
                    }
                }
            }).await();
        } finally {
            writer.stop();
        }
        long ended = System.nanoTime();
        ProcessCpu.Spent spent = ProcessCpu.now().since(cpuBefore);
        long cpu = spent.totalNanos();
        long jobCalls = serverCalls != null ? serverCalls() - serverCallsBefore
                : calls(latency) - readsBefore + latency.calls("commit") - commitsBefore;
        heap.stop();
        quiet(true);
        long wall = Math.max(1, (ended - started) / 1_000_000);
        double tail = tailStart.get() == 0 ? 0 : (ended - tailStart.get()) / (double) (ended - started);
        BenchCheck check = timed ? BenchCheck.of(datastore, kind, shape) : null;
        boolean verified = result.status() == JobStatus.DONE && writer.failure() == null && (check == null
                || check.exact(data.size(), selected, writer.written()) && result.total("written") == selected
                + check.newcomersProcessed());
        if (writer.failure() != null) {
            log.accept("The newcomer writer failed: " + writer.failure());
        }
        long processed = check == null ? selected : selected + check.newcomersProcessed();
        log.accept(String.format(Locale.ROOT, "%-18s %,8d entities  %,9d ms  %,d writes (%,d undo records)  "
                        + "%,d calls  CPU %.3f ms/entity%s  %s%s", strategy.id(), processed, wall,
                result.writesBilled(), result.total(JobResult.UNDO_RECORDS), jobCalls, cpu / 1e6 / Math.max(1, processed),
                spent.split().isEmpty() ? "" : " (" + spent.split() + ")",
                timed ? "verified " + verified : "(warm-up, not timed)", writer.written() == 0 || check == null ? ""
                        : String.format("  (%,d of %,d newcomers processed)", check.newcomersProcessed(),
                        writer.written())));
        RunCosts.Revert revert = seeded == null ? null : revert(strategy, kind, settings, spec, latency, wall, seeded);
        return new BenchResult(strategy.id(), processed, wall, processed * 1000.0 / wall, calls(latency) - readsBefore,
                latency.calls("commit") - commitsBefore, result.maxDepth(), tail, verified, false, heap.peakKb(),
                heap.retainedKb(), writer.written(), check == null ? 0 : check.newcomersProcessed(),
                new RunCosts(result.writesBilled(), result.total(JobResult.UNDO_RECORDS), jobCalls, cpu, revert));
    }

    /**
     * Reverts the job just run over {@code kind} as a user would ({@link JobUndo#startRevert} through a
     * {@link Engine}, behind the same latency), timed, then reads every entity back: the kind must hold what was
     * seeded, entity for entity. A revert that fails or leaves one entity other than it was is said loudly.
     */
    private RunCosts.Revert revert(BenchStrategy strategy, String kind, BenchRunner.Settings settings, JobSpec job,
                                   FaultInjector latency, long jobWall, KindDigest seeded) throws InterruptedException {
        Engine launcher = new Engine(reverting.wrap(latency::wrap), RetryPolicy.DEFAULT,
                JobLease.DEFAULT_DURATION);
        // named as every front end names a revert, by its request
        JobUndo.RevertSettings revertSettings = JobRequest.revert(kind, new JobUndo.RevertSettings(null, false,
                job.shards(), job.workers(), settings.pageSize(), 0)).settings();
        quiet(false);
        long callsBefore = serverCalls != null ? serverCalls()
                : calls(latency) + latency.calls("commit");
        long started = System.nanoTime();
        JobResult result = JobUndo.startRevert(launcher, kind, revertSettings, JobListener.NONE, line -> { })
                .await();
        long wall = Math.max(1, (System.nanoTime() - started) / 1_000_000);
        long calls = (serverCalls != null ? serverCalls() : calls(latency) + latency.calls("commit")) - callsBefore;
        quiet(true);
        KindDigest after = KindDigest.of(datastore, kind);
        boolean verified = result.status() == JobStatus.DONE && after.equals(seeded);
        log.accept(String.format(Locale.ROOT, "  revert of %s: %,d ms (%.2fx its job), %,d writes (%,d undo records), "
                        + "%,d calls; every entity back to its seeded value: %s", strategy.id(), wall,
                wall / (double) jobWall, result.writesBilled(), result.total(JobResult.UNDO_RECORDS), calls,
                verified ? "verified true" : "NOT VERIFIED"));
        if (!verified) {
            log.accept("  REVERT CHECK FAILED for " + strategy.id() + " (job " + kind + "): the revert ended "
                    + result.status() + (result.message() == null ? "" : " (" + result.message() + ")")
                    + "; seeded " + seeded + ", after the revert " + after + ".");
        }
        return new RunCosts.Revert(wall, result.writesBilled(), calls, verified);
    }

    private long serverCalls() {
        return serverCalls == null ? 0 : serverCalls.getAsLong();
    }

    /** A Beam strategy: the pipeline in its own JVM, then the same entity-by-entity check, with double increments. */
    private BenchResult executeBeam(BenchStrategy strategy, Settings settings, String kind, String warmKind,
                                    String mapperJson, int entities, long selected, boolean timed)
            throws InterruptedException {
        BenchShape shape = settings.shape();
        if (shape == BenchShape.GROWING) {
            throw new KeyRangerException("The Beam strategies run over a kind that no one else writes "
                    + "while they run: use a shape other than growing.");
        }
        quiet(false);
        long[] callsBefore = {serverCalls()};
        BeamBench.Pipeline pipeline;
        try (PipelineJvms once = pipelineJvms == null ? new PipelineJvms(List.of()) : null) {
            pipeline = BeamBench.run(strategy, datastore, serverQuiet != null, kind, warmKind,
                    (once != null ? once : pipelineJvms).of(strategy), () -> callsBefore[0] = serverCalls(),
                    settings.workers(), settings.pageSize(), mapperJson, log);
        }
        long calls = serverCalls != null ? serverCalls() - callsBefore[0] : -1;
        long wall = Math.max(1, pipeline.wallMillis());
        quiet(true); // checking is not timed
        BenchCheck check = timed ? BenchCheck.of(datastore, kind, shape) : null;
        long[] doubled = {0};
        if (timed) {
            datastore.run(Query.newEntityQueryBuilder().setKind(kind).build()).forEachRemaining(e -> {
                if (e.getLong("n") > 1) {
                    doubled[0]++;
                }
            });
        }
        boolean verified = check == null || check.exact(entities, selected, 0);
        log.accept(String.format(Locale.ROOT, "%-18s %,8d entities  %,9d ms  %s calls  CPU %s ms/entity (its JVM)  "
                        + "%s, %,d double increments", strategy.id(), selected, wall,
                calls < 0 ? "-" : String.format("%,d", calls), pipeline.cpuNanos() < 0 ? "-"
                        : String.format(Locale.ROOT, "%.3f", pipeline.cpuNanos() / 1e6 / Math.max(1, selected)),
                timed ? "verified " + verified : "(warm-up, not timed)", doubled[0]));
        return new BenchResult(strategy.id(), selected, wall, selected * 1000.0 / wall, 0, 0, 0, 0, verified, false,
                0, 0).withCosts(new RunCosts(-1, -1, calls, pipeline.cpuNanos(), null));
    }

    /** Writes a dataset in batches of 500, the most one commit takes. */
    static void put(Datastore datastore, List<Entity> data) {
        for (int i = 0; i < data.size(); i += 500) {
            datastore.put(data.subList(i, Math.min(data.size(), i + 500)).toArray(new Entity[0]));
        }
    }

    private static long calls(FaultInjector counter) {
        return counter.calls("run") + counter.calls("get") + counter.calls("fetch");
    }

    /**
     * The oracle knows every key the job selects in advance (listed before the clock starts) and cuts them into equal
     * chunks.
     */
    private List<KeyRange> equalChunks(String kind, List<PropertyFilter> where, int chunks) {
        List<Key> keys = new ArrayList<>();
        datastore.run(KeyRange.all(order).applyTo(Query.newKeyQueryBuilder().setKind(kind), where).build())
                .forEachRemaining(keys::add);
        return Baselines.equalChunks(order, i -> keys.get((int) i), keys.size(), chunks);
    }
}
