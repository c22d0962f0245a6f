package io.keyranger.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.KeyCounter;
import io.keyranger.datastore.ProgressListener;
import io.keyranger.demo.DemoSeeder;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.support.SharedEmulator;
import io.keyranger.testhooks.FaultInjector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Plans on the demo data in the real emulator, checked against exact counts and an independent key list. */
class ShardPlannerTest {
    private static final int ACCOUNTS = 3_000;
    private static final KeyOrder ORDER = KeyOrder.EMULATOR;
    private static Datastore datastore;
    private static ShardPlanner planner;
    private static RangeCounter counter;
    private static List<Key> allAccounts;

    @BeforeAll
    static void seed() {
        datastore = SharedEmulator.connect(SharedEmulator.freshProject("plan"));
        new DemoSeeder(datastore).seed(ACCOUNTS, ProgressListener.NONE, Cancellation.NEVER);
        planner = new ShardPlanner(datastore, ORDER);
        counter = new RangeCounter(new KeyCounter(datastore), 2);
        allAccounts = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Account").build()).forEachRemaining(allAccounts::add);
    }

    private static ShardPreview plan(int shards, List<PropertyFilter> filters) {
        return planner.preview(new PlanRequest("", "Account", filters, shards, PlanRequest.DEFAULT_OVERSAMPLE),
                ProgressListener.NONE, Cancellation.NEVER);
    }

    private static ShardPlan counted(ShardPreview preview, ShardPlan plan) {
        return counter.countExactly(plan, preview.request(), RangeCounter.Listener.ofRanges(ProgressListener.NONE),
                Cancellation.NEVER);
    }

    @Test
    void scatterPlanCoversEveryKeyExactlyOnce() {
        ShardPreview preview = plan(16, List.of());
        ShardPlan scatter = counted(preview, preview.scatter());
        assertThat(scatter.method()).isEqualTo(ShardPlan.Method.SCATTER);
        assertThat(scatter.ranges()).hasSize(16);
        assertThat(scatter.ranges().get(0).range().start()).isNull();
        assertThat(scatter.ranges().get(15).range().end()).isNull();
        assertThat(scatter.ranges().stream().mapToLong(PlannedRange::exact).sum()).isEqualTo(ACCOUNTS);
        for (Key key : allAccounts) {
            assertThat(scatter.ranges().stream().filter(r -> r.range().contains(key)).count())
                    .as("ranges holding %s", key).isEqualTo(1);
        }
        for (PlannedRange range : scatter.ranges()) {
            long inMemory = allAccounts.stream().filter(range.range()::contains).count();
            assertThat(range.exact()).as("range %d counted by the server", range.index()).isEqualTo(inMemory);
        }
    }

    @Test
    void scatterPlanIsBalancedWhereTheLexicographicOneIsNot() {
        for (int shards : new int[] {16, 32}) {
            ShardPreview preview = plan(shards, List.of());
            Balance scatter = counted(preview, preview.scatter()).balance();
            Balance lexicographic = counted(preview, preview.lexicographic()).balance();
            System.out.printf("balance at %d shards: scatter max/mean %.3f cv %.3f; lexicographic max/mean %.3f cv %.3f%n",
                    shards, scatter.maxOverMean(), scatter.cv(), lexicographic.maxOverMean(), lexicographic.cv());
            assertThat(scatter.maxOverMean()).as("scatter max/mean at %d shards", shards).isLessThanOrEqualTo(1.3);
            assertThat(lexicographic.maxOverMean()).as("lexicographic max/mean at %d shards", shards)
                    .isGreaterThan(2 * scatter.maxOverMean());
        }
    }

    @Test
    void estimatesAddUpToTheEstimatedTotal() {
        ShardPreview preview = plan(16, List.of());
        assertThat(preview.total().method()).isEqualTo(TotalEstimate.Method.SAMPLE_RATE);
        assertThat(preview.total().total()).isBetween((long) (ACCOUNTS * 0.7), (long) (ACCOUNTS * 1.3));
        long sum = preview.scatter().ranges().stream().mapToLong(PlannedRange::estimated).sum();
        assertThat(sum).isBetween(preview.total().total() - 16, preview.total().total() + 16);
        assertThat(preview.samples()).isEqualTo(16 * PlanRequest.DEFAULT_OVERSAMPLE);
    }

    @Test
    void filtersRestrictTheSampleAndThePlan() {
        List<PropertyFilter> filters = List.of(PropertyFilter.eq("tier", "pro"));
        ShardPreview preview = plan(4, filters);
        long pro = allAccounts.size() == 0 ? 0 : countWhereTierIsPro();
        ShardPlan counted = counted(preview, preview.scatter());
        assertThat(counted.ranges().stream().mapToLong(PlannedRange::exact).sum()).isEqualTo(pro);
        assertThat(preview.notes()).noneMatch(n -> n.contains("Sampled the whole kind"));
    }

    @Test
    void countedPreviewSpreadsItsEstimatesOverTheExactTotal() {
        ShardPreview preview = plan(16, List.of());
        assertThat(preview.total().exact()).as("the sample rate's guess, before counting").isFalse();
        ShardPreview counted = preview.withPlans(counted(preview, preview.scatter()),
                counted(preview, preview.lexicographic()));
        assertThat(counted.total().total()).isEqualTo(ACCOUNTS);
        assertThat(counted.total().exact()).isTrue();
        for (ShardPlan plan : List.of(counted.scatter(), counted.lexicographic())) {
            long estimates = plan.ranges().stream().mapToLong(PlannedRange::estimated).sum();
            assertThat(estimates).as("%s estimates beside an exact total of %d", plan.method(), ACCOUNTS)
                    .isBetween(ACCOUNTS - 16L, ACCOUNTS + 16L);
        }
    }

    @Test
    void smallKindFallsBackToExactQuantilesAndSaysSo() {
        for (int i = 1; i <= 10; i++) {
            datastore.put(Entity.newBuilder(datastore.newKeyFactory().setKind("Tiny").newKey("t" + i)).build());
        }
        ShardPreview preview = planner.preview(new PlanRequest("", "Tiny", List.of(), 16, 64), ProgressListener.NONE,
                Cancellation.NEVER);
        assertThat(preview.scatter().method()).isEqualTo(ShardPlan.Method.EXACT_QUANTILES);
        assertThat(preview.scatter().ranges()).hasSize(10);
        assertThat(preview.scatter().ranges()).allMatch(r -> r.exact() == 1L);
        assertThat(preview.total()).isEqualTo(new TotalEstimate(10, TotalEstimate.Method.EXACT_SCAN));
        assertThat(preview.notes()).anyMatch(n -> n.contains("10 ranges instead of 16"))
                .anyMatch(n -> n.contains("exact keys-only scan"));
        KeyCounter keyCounter = new KeyCounter(datastore);
        for (PlannedRange range : preview.scatter().ranges()) {
            assertThat(keyCounter.count("", "Tiny", range.range().filter(List.of()), ProgressListener.NONE,
                    Cancellation.NEVER).count()).as("range %d counted by the server", range.index()).isEqualTo(1);
        }
    }

    @Test
    void aJobStartsFromThePreviewsSplitWithoutItsEstimate() {
        PlanRequest request = new PlanRequest("", "Account", List.of(), 16, PlanRequest.DEFAULT_OVERSAMPLE);
        ShardPreview preview = planner.preview(request, ProgressListener.NONE, Cancellation.NEVER);
        ShardPlanner.RangePlan plan = planner.planRanges(request, Cancellation.NEVER);
        assertThat(plan.ranges()).containsExactlyElementsOf(
                preview.scatter().ranges().stream().map(PlannedRange::range).toList());
        assertThat(plan.samples()).isEqualTo(preview.sampleKeys());

        for (int i = 1; i <= 5; i++) {
            datastore.put(Entity.newBuilder(datastore.newKeyFactory().setKind("Five").newKey(i)).build());
        }
        ShardPlanner.RangePlan small = planner.planRanges(new PlanRequest("", "Five", List.of(), 8, 64),
                Cancellation.NEVER);
        assertThat(small.ranges()).hasSize(5);
        assertThat(small.entities()).as("counted: it scanned every key").isEqualTo(5);
        for (KeyRange range : small.ranges()) {
            assertThat(datastore.run(range.applyTo(Query.newKeyQueryBuilder().setKind("Five"), List.of()).build()))
                    .toIterable().hasSize(1);
        }
        assertThatThrownBy(() -> planner.planRanges(new PlanRequest("", "Nothing", List.of(), 4, 64),
                Cancellation.NEVER)).isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("Kind 'Nothing' has no entities");
    }

    /**
     * A job planned from every key has its cells cut at evenly spaced keys: at least two a shard, so that its ranges
     * split at cell bounds (no probe, no divided cell), about one per 128 keys on a larger kind, never fewer than 32
     * keys a cell; and the keys it counted are its estimate.
     */
    @Test
    void aJobPlannedFromEveryKeyHasCellsEnoughForItsShards() {
        List<Key> keys = new ArrayList<>();
        for (int i = 1; i <= 40_000; i++) {
            keys.add(Key.newBuilder("p", "K", i, "").build());
        }
        assertThat(ShardPlanner.standIns(keys.subList(0, 10_000), 64)).as("two a shard").hasSize(127);
        assertThat(ShardPlanner.standIns(keys, 64)).as("one per 128 keys").hasSize(311);
        assertThat(ShardPlanner.standIns(keys.subList(0, 3_000), 4)).hasSize(22);
        assertThat(ShardPlanner.standIns(keys.subList(0, 640), 64)).as("cells of 32 keys at least").hasSize(19);
        assertThat(ShardPlanner.standIns(keys.subList(0, 10), 64)).isEmpty();
        List<Key> tenThousand = keys.subList(0, 10_000);
        assertThat(ShardPlanner.standIns(tenThousand, 64)).isSortedAccordingTo(ORDER)
                .containsExactlyElementsOf(ShardPlanner.evenlySpaced(tenThousand, 128));
    }

    /**
     * A kind too small for its scatter sample is listed in ranges of seven samples each (about 900 keys in
     * production's scatter rate), read at once, not in a range between each two. The legacy emulator keeps far more
     * samples than production, so the job asks for shards enough that they are too few: two samples a shard.
     */
    @Test
    void aSmallKindIsListedInARangeASevenSamples() {
        int scattered = new ScatterSampler(datastore, ORDER).sample(new PlanRequest("", "Account", List.of(), 64,
                PlanRequest.DEFAULT_OVERSAMPLE)).keys().size();
        PlanRequest request = new PlanRequest("", "Account", List.of(), scattered / 2, PlanRequest.DEFAULT_OVERSAMPLE);
        int samples = new ScatterSampler(datastore, ORDER).sample(request).keys().size();
        FaultInjector counting = new FaultInjector(0, 0, 0, 1);
        ShardPlanner.RangePlan plan = new ShardPlanner(counting.wrap(datastore), ORDER).planRanges(request,
                Cancellation.NEVER);
        long queries = counting.calls("run");
        System.out.printf("%d accounts, %d scatter samples, %d shards: %d queries%n", ACCOUNTS, samples,
                request.shards(), queries);
        assertThat(plan.entities()).as("planned from every key").isEqualTo(ACCOUNTS);
        assertThat(plan.ranges()).hasSize(request.shards());
        // the sample's query, and a range per seven samples: each holds less than a page here
        assertThat(queries).isEqualTo(1L + samples / 7 + 1);
    }

    @Test
    void anEmptyKindIsAnError() {
        assertThatThrownBy(() -> planner.preview(new PlanRequest("", "Nothing", List.of(), 4, 64),
                ProgressListener.NONE, Cancellation.NEVER))
                .isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("Kind 'Nothing' has no entities");
    }

    @Test
    void exactCountingCanBeCancelled() {
        ShardPreview preview = plan(8, List.of());
        AtomicInteger finished = new AtomicInteger();
        assertThatThrownBy(() -> new RangeCounter(new KeyCounter(datastore), 1).countExactly(preview.scatter(),
                preview.request(), (range, done, total) -> finished.set(done), () -> finished.get() >= 2))
                .isInstanceOf(CancellationException.class);
        assertThat(finished.get()).isLessThan(8);
    }

    /**
     * Filters whose composite index with {@code __scatter__} is missing (always, in production) leave a sample of
     * the whole kind. Where the matching entities crowd into the first tenth of the key space, the ranges cut from
     * it hold no match but one; probing each for its first match keeps only the samples among matches, and the
     * ranges cut from those all hold matching entities, counted by the emulator's own filtered queries.
     */
    @Test
    void aSampleOfTheWholeKindIsNarrowedToWhereTheFiltersMatch() {
        List<Entity> crowded = new ArrayList<>();
        for (int i = 1; i <= 2_000; i++) {
            crowded.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Crowded").newKey(i))
                    .set("hot", i <= 200).build());
        }
        for (int i = 0; i < crowded.size(); i += 500) {
            datastore.put(crowded.subList(i, i + 500).toArray(new Entity[0]));
        }
        PropertyFilter hot = PropertyFilter.eq("hot", true);
        PlanRequest filtered = new PlanRequest("", "Crowded", List.of(hot), 8, PlanRequest.DEFAULT_OVERSAMPLE);
        List<Key> wholeKind = new ScatterSampler(datastore, ORDER)
                .sample(new PlanRequest("", "Crowded", List.of(), 8, PlanRequest.DEFAULT_OVERSAMPLE)).keys();
        List<KeyRange> before = ShardPlanner.rangesAt(ORDER, ShardPlanner.evenlySpaced(wholeKind, 8));
        List<Long> matchesBefore = before.stream().map(r -> matching("Crowded", hot, r)).toList();
        assertThat(matchesBefore).as("matches per range of the whole kind's sample").hasSize(8)
                .filteredOn(n -> n == 0).hasSizeGreaterThanOrEqualTo(6);

        MatchingSpans.Narrowed narrowed = MatchingSpans.narrow(new ExactScan(datastore, ORDER), ORDER, filtered,
                wholeKind, Cancellation.NEVER);
        assertThat(narrowed.ranges()).isEqualTo(8);
        assertThat(narrowed.empty()).as("the ranges the emulator finds no match in")
                .isEqualTo(matchesBefore.stream().filter(n -> n == 0).count());
        assertThat(narrowed.samples()).isSortedAccordingTo(ORDER).doesNotHaveDuplicates()
                .hasSizeGreaterThanOrEqualTo(8).allMatch(k -> k.getId() <= before.get(0).end().getId());
        assertThat(narrowed.samples().get(0).getId()).as("the first match").isEqualTo(1);
        assertThat(narrowed.note()).contains(narrowed.empty() + " of the 8 ranges");

        List<KeyRange> after = ShardPlanner.rangesAt(ORDER, ShardPlanner.evenlySpaced(narrowed.samples(), 8));
        List<Long> matchesAfter = after.stream().map(r -> matching("Crowded", hot, r)).toList();
        assertThat(matchesAfter).as("matches per range of the narrowed sample").hasSize(8)
                .filteredOn(n -> n == 0).hasSizeLessThanOrEqualTo(1);
        assertThat(matchesAfter.stream().mapToLong(Long::longValue).sum()).isEqualTo(200);
    }

    private static long matching(String kind, PropertyFilter filter, KeyRange range) {
        AtomicInteger count = new AtomicInteger();
        datastore.run(range.applyTo(Query.newKeyQueryBuilder().setKind(kind), List.of(filter)).build())
                .forEachRemaining(k -> count.incrementAndGet());
        return count.get();
    }

    private static long countWhereTierIsPro() {
        KeyQuery query = Query.newKeyQueryBuilder().setKind("Account").setFilter(PropertyFilter.eq("tier", "pro")).build();
        AtomicInteger count = new AtomicInteger();
        datastore.run(query).forEachRemaining(k -> count.incrementAndGet());
        return count.get();
    }
}
