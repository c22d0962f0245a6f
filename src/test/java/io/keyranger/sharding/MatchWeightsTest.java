package io.keyranger.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.KeyCounter;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A filtered job's split when its scatter sample covers the whole kind, on the legacy emulator: matches crowded at
 * the start of the kind (and a few at its end) are shared evenly among the ranges, counted by the emulator's own
 * query, where a split by the sample alone leaves most ranges without one.
 */
class MatchWeightsTest {
    private static final KeyOrder ORDER = KeyOrder.EMULATOR;
    private static final int ITEMS = 3_000;
    private static final int SHARDS = 8;
    private static final List<PropertyFilter> HOT = List.of(PropertyFilter.eq("hot", true));
    private static Datastore datastore;
    private static List<Key> samples;
    private static List<Key> hot;

    @BeforeAll
    static void seed() {
        datastore = SharedEmulator.connect(SharedEmulator.freshProject("weights"));
        List<Entity> items = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            // the first 300 and the last 60 in key order match
            items.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Item").newKey(String.format("i-%05d", i)))
                    .set("hot", i < 300 || i >= ITEMS - 60).build());
        }
        SharedEmulator.putAll(datastore, items);
        samples = new ScatterSampler(datastore, ORDER).sample(request(List.of())).keys();
        hot = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Item").setFilter(HOT.get(0)).build())
                .forEachRemaining(hot::add);
    }

    private static PlanRequest request(List<PropertyFilter> filters) {
        return new PlanRequest("", "Item", filters, SHARDS, PlanRequest.DEFAULT_OVERSAMPLE);
    }

    /** How many of the emulator's matches fall in each range between {@code bounds}. */
    private static int[] matchesPerRange(List<Key> bounds) {
        List<KeyRange> ranges = ShardPlanner.rangesAt(ORDER, bounds);
        int[] counts = new int[ranges.size()];
        for (Key key : hot) {
            for (int r = 0; r < ranges.size(); r++) {
                if (ranges.get(r).contains(key)) {
                    counts[r]++;
                }
            }
        }
        return counts;
    }

    @Test
    void crowdedMatchesAreSharedEvenlyAmongTheRanges() {
        assertThat(hot).hasSize(360);
        assertThat(samples.size()).as("the kind's sample").isGreaterThan(SHARDS * 4);

        MatchWeights.Split split = new MatchWeights(new KeyCounter(datastore), ORDER).split(request(HOT), samples,
                Cancellation.NEVER);

        assertThat(split.matches()).isEqualTo(360);
        assertThat(samples).containsAll(split.bounds());
        assertThat(split.bounds()).isSortedAccordingTo(ORDER).doesNotHaveDuplicates();
        int[] weighted = matchesPerRange(split.bounds());
        int[] bySample = matchesPerRange(ShardPlanner.evenlySpaced(samples, SHARDS));
        assertThat(java.util.Arrays.stream(weighted).sum()).as("every match in one range").isEqualTo(360);
        System.out.printf("matches a range, weighted %s; by the sample alone %s%n",
                java.util.Arrays.toString(weighted), java.util.Arrays.toString(bySample));
        assertThat(weighted).hasSize(SHARDS);
        assertThat(java.util.Arrays.stream(weighted).max().getAsInt()).as("the fullest range against a share of 45")
                .isLessThanOrEqualTo(70);
        assertThat(java.util.Arrays.stream(bySample).filter(n -> n == 0).count()).as("empty by the sample alone")
                .isGreaterThanOrEqualTo(SHARDS / 2);
    }

    @Test
    void noMatchLeavesTheSplitBySample() {
        MatchWeights.Split split = new MatchWeights(new KeyCounter(datastore), ORDER).split(
                request(List.of(PropertyFilter.eq("hot", "no such value"))), samples, Cancellation.NEVER);

        assertThat(split.matches()).isZero();
        assertThat(split.bounds()).isEqualTo(ShardPlanner.evenlySpaced(samples, SHARDS));
    }
}
