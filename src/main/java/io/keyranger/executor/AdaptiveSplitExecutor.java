package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.Cancellation;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ScatterSampler;
import io.keyranger.sharding.ShardPlanner;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs a page mapper over every entity of a kind by adaptive splitting. Each range fetches a page of keys, commits
 * it exactly once with its checkpoint, moves strictly past the last key, and splits the rest in two at the median
 * of the job's scatter samples inside it (or the key midpoint when none are), so work fans out as a tree and a job
 * of unknown size finishes in time that grows with the log of its size. Concurrency is capped by a worker pool;
 * everything is persisted, so a job can be resumed after a crash from any machine.
 */
public final class AdaptiveSplitExecutor {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AdaptiveSplitExecutor.class);
    static final int COUNTER_SHARDS_PER_WORKER = 2;

    private final Datastore datastore;
    private final KeyOrder order;
    private final ServerLimits limits;
    private final RetryPolicy retries;
    private boolean readOnly;
    private SplitPolicy splitPolicy = SplitPolicy.SAMPLES;
    private java.util.function.Function<PlanRequest, List<KeyRange>> planOverride;

    public AdaptiveSplitExecutor(Datastore datastore, KeyOrder order, ServerLimits limits) {
        this(datastore, order, limits, RetryPolicy.DEFAULT);
    }

    public AdaptiveSplitExecutor(Datastore datastore, KeyOrder order, ServerLimits limits, RetryPolicy retries) {
        this.datastore = datastore;
        this.order = order;
        this.limits = limits;
        this.retries = retries;
    }

    /** For benchmarks: how ranges split (KeyRanger's own is {@link SplitPolicy#SAMPLES}). */
    public AdaptiveSplitExecutor splitPolicy(SplitPolicy policy) {
        this.splitPolicy = policy;
        return this;
    }

    /** For benchmarks: the initial ranges instead of the scatter plan (e.g. an oracle's exact equal chunks). */
    public AdaptiveSplitExecutor initialRanges(java.util.function.Function<PlanRequest, List<KeyRange>> plan) {
        this.planOverride = plan;
        return this;
    }

    /** Refuse mappers that write (a read-only connection); enforced here, not only in the UI. */
    public AdaptiveSplitExecutor readOnly(boolean value) {
        this.readOnly = value;
        return this;
    }

    private void checkWritable(PageMapper mapper) {
        if (readOnly && mapper.writes()) {
            throw new io.keyranger.KeyRangerException("The connection is read-only: the '" + mapper.name()
                    + "' mapper writes.");
        }
    }

    /** A new job id: the kind, the time, and a random suffix. */
    public static String newJobId(String kind) {
        String safeKind = kind.replaceAll("[^A-Za-z0-9_.-]", "_");
        return safeKind.substring(0, Math.min(40, safeKind.length())) + "-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                + Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36), 36);
    }

    /** Plans the kind, persists the job and its ranges, and starts it. */
    public JobHandle start(JobSpec spec, JobListener listener) {
        return start(spec, Mappers.create(spec.mapper()), listener);
    }

    /** Starts a job with a mapper built by the caller (tests); resuming it needs a registered template. */
    public JobHandle start(JobSpec spec, PageMapper mapper, JobListener listener) {
        checkWritable(mapper);
        if (mapper.name().equals("import")) {
            throw new io.keyranger.KeyRangerException("'import' reads its file rather than key ranges: run it with "
                    + "ImportJob ('keyranger run --mapper import.json' or the Run tab do this).");
        }
        JobStore store = new JobStore(datastore);
        if (datastore.get(store.jobKey(spec.jobId())) != null) {
            throw new io.keyranger.KeyRangerException("A job with id '" + spec.jobId() + "' exists already; resume it "
                    + "with --resume " + spec.jobId() + " or choose another id.");
        }
        PlanRequest request = new PlanRequest(spec.namespace(), spec.kind(), spec.mapper().where(), spec.shards(),
                PlanRequest.DEFAULT_OVERSAMPLE);
        long planStarted = System.nanoTime();
        ShardPlanner.RangePlan plan = planOverride != null
                ? new ShardPlanner.RangePlan(planOverride.apply(request), List.of())
                : retrying(() -> new ShardPlanner(datastore, order).planRanges(request, Cancellation.NEVER));
        List<RangeNode> roots = new ArrayList<>();
        for (int i = 0; i < plan.ranges().size(); i++) {
            roots.add(new RangeNode("r" + i, null, 0, plan.ranges().get(i)));
        }
        List<Key> samples = plan.samples();
        LOG.info("Job {}: planned {} ranges in {} ms", spec.jobId(), roots.size(),
                (System.nanoTime() - planStarted) / 1_000_000);
        List<Entity> entities = roots.stream().map(n -> store.nodeEntity(spec.jobId(), n)).toList();
        for (int i = 0; i < entities.size(); i += 500) {
            Entity[] batch = entities.subList(i, Math.min(entities.size(), i + 500)).toArray(new Entity[0]);
            retrying(() -> datastore.put(batch));
        }
        Instant created = Instant.now();
        retrying(() -> {
            store.saveJob(spec, JobStatus.RUNNING, created);
            return null;
        });
        ShardedCounter counter = retrying(() -> openCounter(spec));
        JobRun run = new JobRun(datastore, order, limits, retries, store, spec, mapper, counter, listener,
                samples, splitPolicy);
        return run.start(roots, roots);
    }

    /** Continues a job from its persisted checkpoints: finished ranges stay finished, the others go on. */
    public JobHandle resume(String jobId, JobListener listener) {
        JobStore store = new JobStore(datastore);
        JobStore.StoredJob stored = retrying(() -> store.loadJob(jobId));
        JobSpec spec = stored.spec();
        PageMapper mapper = Mappers.create(spec.mapper());
        checkWritable(mapper);
        List<RangeNode> nodes = retrying(() -> store.loadNodes(jobId, order, datastore));
        List<RangeNode> pending = nodes.stream().filter(n -> !n.status.isFinal()).toList();
        pending.forEach(n -> n.status = NodeStatus.QUEUED);
        PlanRequest request = new PlanRequest(spec.namespace(), spec.kind(), spec.mapper().where(), spec.shards(),
                PlanRequest.DEFAULT_OVERSAMPLE);
        List<Key> samples = retrying(() -> new ScatterSampler(datastore, order).sample(request).keys());
        retrying(() -> {
            store.setJobStatus(jobId, JobStatus.RUNNING, 0);
            return null;
        });
        JobRun run = new JobRun(datastore, order, limits, retries, store, spec, mapper, retrying(() -> openCounter(spec)),
                listener, samples, splitPolicy);
        return run.start(nodes, pending);
    }

    /** Jobs stored in this database, newest first. */
    public List<JobSummary> jobs() {
        JobStore store = new JobStore(datastore);
        return store.listJobs().stream().map(j -> new JobSummary(j.spec(), j.status(), j.created())).toList();
    }

    /** The persisted totals of a job. */
    public java.util.Map<String, Long> totals(String jobId) {
        new JobStore(datastore).loadJob(jobId);
        return ShardedCounter.existing(datastore, counterName(jobId)).totals();
    }

    /** The nodes of a job as persisted. */
    public List<NodeSnapshot> nodes(String jobId) {
        return new JobStore(datastore).loadNodes(jobId, order, datastore).stream().map(n -> n.snapshot(jobId)).toList();
    }

    /** Preparation outside any range, retried on transient errors like a page. */
    private <T> T retrying(java.util.function.Supplier<T> operation) {
        return retries.call(operation);
    }

    static String counterName(String jobId) {
        return "job:" + jobId;
    }

    private ShardedCounter openCounter(JobSpec spec) {
        int shards = Math.min(100, Math.max(4, spec.workers() * COUNTER_SHARDS_PER_WORKER));
        return ShardedCounter.open(datastore, counterName(spec.jobId()), shards);
    }

    /**
     * A stored job, for listings.
     *
     * @param spec    its spec
     * @param status  its status; RUNNING for a job that is running or was interrupted
     * @param created when it was created
     */
    public record JobSummary(JobSpec spec, JobStatus status, Instant created) {
    }

    /** Helper for split points: the median of the sorted samples strictly inside {@code range}. */
    static java.util.Optional<Key> medianSampleInside(List<Key> sortedSamples, KeyRange range, KeyOrder order) {
        int lo = 0;
        int hi = sortedSamples.size();
        if (range.start() != null) {
            lo = upperBound(sortedSamples, range.start(), order); // first sample > start
        }
        if (range.end() != null) {
            hi = lowerBound(sortedSamples, range.end(), order); // first sample >= end
        }
        if (hi - lo < 1) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(sortedSamples.get(lo + (hi - lo) / 2));
    }

    private static int lowerBound(List<Key> sorted, Key key, KeyOrder order) {
        int lo = 0;
        int hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (order.compare(sorted.get(mid), key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static int upperBound(List<Key> sorted, Key key, KeyOrder order) {
        int lo = 0;
        int hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (order.compare(sorted.get(mid), key) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
