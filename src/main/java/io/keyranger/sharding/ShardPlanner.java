package io.keyranger.sharding;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.KeyCounter;
import io.keyranger.datastore.ProgressListener;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;

/**
 * Cuts a kind's key space into ranges of about equal size without reading the data: it sorts
 * {@code shards × oversample} scatter-sampled keys and splits at evenly spaced samples, with a symmetric stride so
 * that the first and last ranges hold as many samples as the others. With too few samples (a small kind, or
 * selective filters) it plans from an exact keys-only scan instead, and says so. A sample of the whole kind (filters
 * without the composite index a filtered sample needs) is first narrowed to where the filters select entities
 * ({@link MatchingSpans}). It never returns fewer ranges than asked without a note saying why.
 */
public final class ShardPlanner {
    /** Below this many samples per shard the sample says too little and the planner scans exactly. */
    static final int MIN_SAMPLES_PER_SHARD = 4;
    /** The exact fallback reads at most this many keys. */
    public static final int EXACT_SCAN_LIMIT = 200_000;
    /** Keys read in key order to estimate the total from the sample rate when COUNT is missing. */
    static final int RATE_PROBE_KEYS = 2_000;

    private final Datastore datastore;
    private final KeyOrder order;
    private final KeyCounter counter;
    private final ExactScan scan;

    public ShardPlanner(Datastore datastore, KeyOrder order) {
        this.datastore = datastore;
        this.order = order;
        this.counter = new KeyCounter(datastore);
        this.scan = new ExactScan(datastore, order);
    }

    public ShardPreview preview(PlanRequest request, ProgressListener progress, Cancellation cancellation) {
        return preview(request, null, progress, cancellation);
    }

    /**
     * Plans with a total the caller already knows exactly (the kind browser's count), which spares the estimate;
     * it is used only when the request has no filters.
     */
    public ShardPreview preview(PlanRequest request, TotalEstimate knownTotal, ProgressListener progress,
                                Cancellation cancellation) {
        progress.progress(0, 3);
        ScatterSampler.Sample sample = new ScatterSampler(datastore, order).sample(request);
        cancellation.check();
        progress.progress(1, 3);
        List<String> notes = new ArrayList<>();
        List<Key> samples = sample.keys();
        ShardPreview preview;
        if (tooFewSamples(samples.size(), request.shards())) {
            if (!sample.filtersApplied()) {
                notes.add("Sampled the whole kind: the composite index for the filters and __scatter__ is missing.");
            }
            preview = exactPreview(request, samples, notes, cancellation);
        } else {
            if (!sample.filtersApplied()) {
                MatchingSpans.Narrowed narrowed = narrowed(request, samples, true, cancellation);
                notes.add(narrowed.note());
                samples = narrowed.samples();
                if (samples.size() < request.shards()) {
                    notes.add("Only " + samples.size() + " samples fall among the matching entities: "
                            + samples.size() + " ranges instead of " + request.shards() + ".");
                }
            }
            TotalEstimate total = knownTotal != null && request.filters().isEmpty() ? knownTotal
                    : estimateTotal(request, samples, cancellation);
            preview = sampledPreview(request, samples, total, notes);
        }
        progress.progress(3, 3);
        return preview;
    }

    /**
     * The ranges a job starts from, and the samples it later splits at: the same split as {@link #preview}, without
     * the size estimate and the lexicographic comparison, which a job does not need (they cost a few seconds of
     * reads before the first page).
     */
    public RangePlan planRanges(PlanRequest request, Cancellation cancellation) {
        return planRanges(request, true, cancellation);
    }

    /**
     * {@link #planRanges} for a read that an empty kind does not make pointless (a restore from the past when the
     * kind is gone, the live side of a comparison: nothing was added): a kind without entities is no refusal but
     * one range over the whole key space.
     */
    public RangePlan planRangesOrWhole(PlanRequest request, Cancellation cancellation) {
        return planRanges(request, false, cancellation);
    }

    private RangePlan planRanges(PlanRequest request, boolean refuseEmpty, Cancellation cancellation) {
        ScatterSampler.Sample sample = new ScatterSampler(datastore, order).sample(request);
        cancellation.check();
        List<Key> samples = sample.keys();
        if (tooFewSamples(samples.size(), request.shards())) {
            List<Key> keys = exactKeys(request, samples, refuseEmpty, cancellation);
            return new RangePlan(rangesAt(order, evenlySpaced(keys, request.shards())),
                    standIns(keys, request.shards()), keys.size());
        }
        if (!sample.filtersApplied()) {
            samples = narrowed(request, samples, refuseEmpty, cancellation).samples();
        }
        return new RangePlan(rangesAt(order, evenlySpaced(samples, request.shards())), samples);
    }

    /**
     * A sample of the whole kind left where the request's filters select entities ({@link MatchingSpans}); a request
     * that selects none is refused when {@code refuseEmpty}, else planned as one range.
     */
    private MatchingSpans.Narrowed narrowed(PlanRequest request, List<Key> samples, boolean refuseEmpty,
                                            Cancellation cancellation) {
        MatchingSpans.Narrowed narrowed = MatchingSpans.narrow(scan, order, request, samples, cancellation);
        if (narrowed.samples().isEmpty() && refuseEmpty) {
            throw new KeyRangerException("Kind '" + request.kind() + "' has no entities" + where(request) + ".");
        }
        return narrowed;
    }

    /**
     * Keys per stand-in sample at most (about as many as scatter would give) when a plan scanned every key: a kind
     * too small for its scatter sample, or a server without one (the Firestore emulator).
     */
    static final int SAMPLE_EVERY = 128;
    /** Keys per stand-in sample at least: a commit of a page of 100 writes the ledgers of about four cells. */
    static final int SAMPLE_EVERY_AT_LEAST = 32;

    /**
     * The samples of a job planned from every key ({@code keys}, in key order), which its cells are cut at: evenly
     * spaced keys, one per {@link #SAMPLE_EVERY} keys and at least two a shard (never more than one per
     * {@link #SAMPLE_EVERY_AT_LEAST}), so that the ranges a split gives away start at cell bounds. With fewer cells
     * a range splits by probing past its midpoint (a query) and divides the cell it lands in (a transaction, and an
     * abort of the commit in flight there): 640 calls against the oracle's 531 on 10,000 entities at 64 workers. A
     * job with no cells but its starting ranges fares worse on a server that locks (the Firestore emulator), where
     * every commit of a divided cell waits on that cell's root: 7.5-27 s instead of 3.5 s at 4 workers over 3,000 keys.
     */
    static List<Key> standIns(List<Key> keys, int shards) {
        int cells = Math.min(Math.max(keys.size() / SAMPLE_EVERY, 2 * shards), keys.size() / SAMPLE_EVERY_AT_LEAST);
        return evenlySpaced(keys, Math.max(1, cells));
    }

    /**
     * A job's starting split.
     *
     * @param ranges   contiguous ranges covering the key space, in key order
     * @param samples  the scatter samples in key order (or stand-ins for them: {@link #standIns})
     * @param entities the keys counted when the plan scanned every one, else -1
     */
    public record RangePlan(List<KeyRange> ranges, List<Key> samples, long entities) {
        public RangePlan {
            ranges = List.copyOf(ranges);
            samples = List.copyOf(samples);
        }

        /** A plan from a sample, whose entities are not counted. */
        public RangePlan(List<KeyRange> ranges, List<Key> samples) {
            this(ranges, samples, -1);
        }
    }

    private ShardPreview sampledPreview(PlanRequest request, List<Key> samples, TotalEstimate total, List<String> notes) {
        List<Key> scatterBounds = evenlySpaced(samples, request.shards());
        ShardPlan scatter = sampledPlan(ShardPlan.Method.SCATTER, scatterBounds, samples, total.total());
        Key first = firstKey(request);
        ShardPlan lexicographic = sampledPlan(ShardPlan.Method.LEXICOGRAPHIC,
                LexicographicSplitter.bounds(order, first, samples.get(samples.size() - 1), request.shards()), samples,
                total.total());
        return new ShardPreview(request, scatter, lexicographic, total, samples.size(), notes, samples);
    }

    private ShardPreview exactPreview(PlanRequest request, List<Key> samples, List<String> notes,
                                      Cancellation cancellation) {
        int sampleCount = samples.size();
        List<Key> keys = exactKeys(request, samples, true, cancellation);
        notes.add(sampleCount == 0 ? "No __scatter__ samples (a kind of under about 128 entities, or a server "
                + "without __scatter__ such as the Firestore emulator): planned from an exact keys-only scan of "
                + keys.size() + " keys."
                : "Too few scatter samples (" + sampleCount + ") for " + request.shards()
                + " shards: planned from an exact keys-only scan of " + keys.size() + " keys.");
        if (keys.size() < request.shards()) {
            notes.add("Only " + keys.size() + " entities" + where(request) + ": " + keys.size() + " ranges instead of "
                    + request.shards() + ".");
        }
        TotalEstimate total = new TotalEstimate(keys.size(), TotalEstimate.Method.EXACT_SCAN);
        ShardPlan scatter = exactPlan(ShardPlan.Method.EXACT_QUANTILES, evenlySpaced(keys, request.shards()), keys);
        ShardPlan lexicographic = exactPlan(ShardPlan.Method.LEXICOGRAPHIC,
                LexicographicSplitter.bounds(order, keys.get(0), keys.get(keys.size() - 1), request.shards()), keys);
        return new ShardPreview(request, scatter, lexicographic, total, sampleCount, notes, samples);
    }

    /**
     * Every key in key order, when the sample is too small to plan from, read in parallel over the ranges between
     * the samples; refuses huge scans, and empty kinds when {@code refuseEmpty}.
     */
    private List<Key> exactKeys(PlanRequest request, List<Key> samples, boolean refuseEmpty,
                                Cancellation cancellation) {
        List<Key> keys = scan.all(request, samples, EXACT_SCAN_LIMIT, cancellation, () -> new KeyRangerException(
                samples.isEmpty() ? "No __scatter__ samples, and more than " + EXACT_SCAN_LIMIT + " entities"
                + where(request) + ": this server has no __scatter__ (the Firestore emulator), and KeyRanger plans a "
                + "kind this large from scatter samples only. Run it on the legacy emulator or in production, or "
                + "select fewer entities."
                : "Only " + samples.size() + " scatter samples for " + request.shards() + " shards, but more than "
                + EXACT_SCAN_LIMIT + " entities" + where(request) + ": raise --oversample, or ask for fewer shards."));
        if (keys.isEmpty() && refuseEmpty) {
            throw new KeyRangerException("Kind '" + request.kind() + "' has no entities" + where(request) + ".");
        }
        return keys;
    }

    /**
     * k-1 boundaries from sorted keys at indices round(j·n/k): ranges differ by at most one key, and the first and
     * last ranges are no shorter than the others (unlike a stride that starts at m and leaves the rest to the last).
     * With fewer keys than shards every key but the first starts a range.
     */
    public static List<Key> evenlySpaced(List<Key> sorted, int shards) {
        int n = sorted.size();
        int k = Math.min(shards, n);
        List<Key> bounds = new ArrayList<>(Math.max(0, k - 1));
        for (int j = 1; j < k; j++) {
            bounds.add(sorted.get((int) Math.round((double) j * n / k)));
        }
        return bounds;
    }

    private ShardPlan sampledPlan(ShardPlan.Method method, List<Key> bounds, List<Key> samples, long total) {
        int[] perRange = countPerRange(bounds, samples);
        List<PlannedRange> ranges = new ArrayList<>(perRange.length);
        for (int i = 0; i < perRange.length; i++) {
            long estimated = Math.round((double) perRange[i] * total / samples.size());
            ranges.add(new PlannedRange(i, rangeAt(bounds, i), perRange[i], estimated, null));
        }
        return new ShardPlan(method, ranges);
    }

    private ShardPlan exactPlan(ShardPlan.Method method, List<Key> bounds, List<Key> keys) {
        int[] perRange = countPerRange(bounds, keys);
        List<PlannedRange> ranges = new ArrayList<>(perRange.length);
        for (int i = 0; i < perRange.length; i++) {
            ranges.add(new PlannedRange(i, rangeAt(bounds, i), perRange[i], perRange[i], (long) perRange[i]));
        }
        return new ShardPlan(method, ranges);
    }

    private KeyRange rangeAt(List<Key> bounds, int i) {
        return rangeAt(order, bounds, i);
    }

    private static KeyRange rangeAt(KeyOrder order, List<Key> bounds, int i) {
        return KeyRange.of(order, i == 0 ? null : bounds.get(i - 1), i == bounds.size() ? null : bounds.get(i));
    }

    /** The ranges between {@code bounds} (in key order), from the start of key space to its end. */
    public static List<KeyRange> rangesAt(KeyOrder order, List<Key> bounds) {
        List<KeyRange> ranges = new ArrayList<>(bounds.size() + 1);
        for (int i = 0; i <= bounds.size(); i++) {
            ranges.add(rangeAt(order, bounds, i));
        }
        return ranges;
    }

    /** Whether {@code samples} scatter samples are too few to plan {@code shards} ranges from (the plan scans instead). */
    public static boolean tooFewSamples(int samples, int shards) {
        return samples < shards * MIN_SAMPLES_PER_SHARD;
    }

    /** How many of the sorted keys fall in each range [b(i-1), b(i)). */
    private int[] countPerRange(List<Key> bounds, List<Key> sortedKeys) {
        int[] counts = new int[bounds.size() + 1];
        for (Key key : sortedKeys) {
            int at = Collections.binarySearch(bounds, key, order);
            counts[at >= 0 ? at + 1 : -at - 1]++;
        }
        return counts;
    }

    private TotalEstimate estimateTotal(PlanRequest request, List<Key> samples, Cancellation cancellation) {
        OptionalLong counted = counter.tryAggregate(request.namespace(), request.kind(),
                ScatterSampler.and(request.filters()));
        if (counted.isPresent()) {
            return new TotalEstimate(counted.getAsLong(), TotalEstimate.Method.COUNT);
        }
        if (request.filters().isEmpty()) {
            OptionalLong statistics = kindStatistics(request);
            if (statistics.isPresent()) {
                return new TotalEstimate(statistics.getAsLong(), TotalEstimate.Method.STATISTICS);
            }
        }
        // The share of the sample that falls among the first P keys estimates P / total, whatever the sample rate.
        List<Key> firstKeys = scan.keys(request, KeyRange.all(order), RATE_PROBE_KEYS, cancellation);
        if (firstKeys.size() < RATE_PROBE_KEYS) {
            return new TotalEstimate(firstKeys.size(), TotalEstimate.Method.EXACT_SCAN);
        }
        Key last = firstKeys.get(firstKeys.size() - 1);
        int position = Collections.binarySearch(samples, last, order);
        int samplesAmongFirst = position >= 0 ? position + 1 : -position - 1;
        long total = Math.round((double) RATE_PROBE_KEYS * samples.size() / Math.max(1, samplesAmongFirst));
        return new TotalEstimate(Math.max(total, RATE_PROBE_KEYS), TotalEstimate.Method.SAMPLE_RATE);
    }

    private OptionalLong kindStatistics(PlanRequest request) {
        String statKind = request.namespace().isEmpty() ? "__Stat_Kind__" : "__Stat_Ns_Kind__";
        Query<Entity> query = Query.newEntityQueryBuilder().setNamespace(request.namespace()).setKind(statKind)
                .setFilter(PropertyFilter.eq("kind_name", request.kind())).setLimit(1).build();
        QueryResults<Entity> results = datastore.run(query);
        if (results.hasNext()) {
            Entity stat = results.next();
            if (stat.contains("count")) {
                return OptionalLong.of(stat.getLong("count"));
            }
        }
        return OptionalLong.empty();
    }

    private Key firstKey(PlanRequest request) {
        List<Key> first = scan.keys(request, KeyRange.all(order), 1, Cancellation.NEVER);
        if (first.isEmpty()) {
            throw new KeyRangerException("Kind '" + request.kind() + "' has no entities" + where(request) + ".");
        }
        return first.get(0);
    }

    private static String where(PlanRequest request) {
        String ns = request.namespace().isEmpty() ? "" : " in namespace '" + request.namespace() + "'";
        return ns + (request.filters().isEmpty() ? "" : " matching the filters");
    }
}
