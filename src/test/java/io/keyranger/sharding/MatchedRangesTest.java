package io.keyranger.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ServerType;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * A filtered job planned from samples of the whole kind (the composite index of its filter and {@code __scatter__}
 * is missing) is re-cut where its filter selects: here a tenth of a kind, all at the start of its key space, which
 * a plan by the whole kind's samples puts into 2 of its 16 ranges. The selected entities of each re-cut range are
 * counted with the emulator's own queries.
 */
@OnDataEmulators
class MatchedRangesTest {
    private static final int ENTITIES = 2_000;
    private static final int SHARDS = 16;
    private static final List<PropertyFilter> HOT = List.of(PropertyFilter.eq("hot", true));

    @Parameter
    ServerType server;

    @Test
    void rangesAreCutWhereTheFilterSelectsAndStillCoverTheKeySpace() {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject(server, "matched"));
        KeyFactory keys = datastore.newKeyFactory().setKind("Item");
        List<Entity> batch = new ArrayList<>();
        for (int i = 1; i <= ENTITIES; i++) {
            Key key = i % 2 == 0 ? keys.newKey(i) : keys.newKey(String.format("n-%05d", i));
            batch.add(Entity.newBuilder(key).set("hot", key.hasId() && key.getId() <= ENTITIES / 5).build());
            if (batch.size() == 400) {
                datastore.put(batch.toArray(Entity[]::new));
                batch.clear();
            }
        }
        KeyOrder order = server.keyOrder();
        List<Key> all = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Item").build()).forEachRemaining(all::add);
        all.sort(order);
        List<Key> samples = new ArrayList<>(); // the whole kind's samples: every tenth key
        for (int i = 5; i < all.size(); i += 10) {
            samples.add(all.get(i));
        }
        ShardPlanner.RangePlan plan = new ShardPlanner.RangePlan(
                ShardPlanner.rangesAt(order, ShardPlanner.evenlySpaced(samples, SHARDS)), samples);
        PlanRequest request = new PlanRequest("", "Item", HOT, SHARDS, PlanRequest.DEFAULT_OVERSAMPLE);
        assertThat(plan.ranges().stream().filter(r -> selected(datastore, r) > 0).count())
                .as("ranges of the whole kind's plan that hold a selected entity").isLessThanOrEqualTo(3);

        ShardPlanner.RangePlan recut = new MatchedRanges(datastore, order).recut(request, plan, Cancellation.NEVER);

        if (server == ServerType.EMULATOR) { // no COUNT aggregation: the plan stays as it was
            assertThat(recut).isEqualTo(plan);
            return;
        }
        List<KeyRange> ranges = recut.ranges();
        assertThat(ranges.get(0).start()).isNull();
        assertThat(ranges.get(ranges.size() - 1).end()).isNull();
        for (int i = 1; i < ranges.size(); i++) {
            assertThat(ranges.get(i).start()).as("range %d starts where %d ends", i, i - 1)
                    .isEqualTo(ranges.get(i - 1).end());
        }
        List<Integer> counts = ranges.stream().map(r -> selected(datastore, r)).toList();
        int total = counts.stream().mapToInt(Integer::intValue).sum();
        assertThat(total).isEqualTo(selected(datastore, KeyRange.all(order))).isEqualTo(ENTITIES / 10);
        List<Integer> holding = counts.stream().filter(c -> c > 0).toList();
        // 14 planned ranges select nothing: joined four at a time, 4 ranges; the other 12 shards go where the
        // selected entities are (a planned range that is selected in part is cut at the kind's samples, so a piece
        // of it past its last selected entity may select nothing)
        assertThat(counts.size() - holding.size()).as("ranges selecting nothing in %s", counts).isBetween(4, 6);
        assertThat(holding.size()).as("ranges selecting entities in %s", counts).isBetween(SHARDS - 6, SHARDS - 4);
        assertThat(holding.stream().mapToInt(Integer::intValue).max().getAsInt())
                .as("the largest range against the mean of %s", holding).isLessThanOrEqualTo(2 * total / holding.size());
        assertThat(recut.samples()).isEqualTo(plan.samples());
    }

    /** The entities of {@code range} the filter selects, as the emulator's own keys-only query finds them. */
    private static int selected(Datastore datastore, KeyRange range) {
        QueryResults<Key> results = datastore.run(range.applyTo(Query.newKeyQueryBuilder().setKind("Item"), HOT)
                .build());
        int count = 0;
        while (results.hasNext()) {
            results.next();
            count++;
        }
        return count;
    }
}
