package io.keyranger.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.datastore.v1.Entity;
import com.google.datastore.v1.Filter;
import com.google.datastore.v1.Key;
import com.google.datastore.v1.KindExpression;
import com.google.datastore.v1.Mutation;
import com.google.datastore.v1.PartitionId;
import com.google.datastore.v1.PropertyFilter;
import com.google.datastore.v1.PropertyReference;
import com.google.datastore.v1.Query;
import com.google.datastore.v1.Value;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The model answers an equality filter from the property's index, as production does: a query reads the entities the
 * index lists under the value, not the kind (what the answers are is checked against the Firestore emulator by
 * {@link ModelFidelityTest} and {@link ModelVersionsFidelityTest}); and the index keeps what a read of the past needs.
 */
class PropertyIndexTest {
    private static final PartitionId PARTITION = PartitionId.newBuilder().setProjectId("index").build();

    @Test
    void anEqualityFilterReadsTheKeysItsIndexListsAndAReadOfThePastFindsWhatMatchedThen() {
        ModelData data = new ModelData(ProtoKeyOrder.PRODUCTION, Duration.ofHours(1));
        List<Entity> seed = new ArrayList<>();
        for (int id = 1; id <= 10_000; id++) {
            seed.add(entity(id, id <= 10));
        }
        data.load(seed);

        assertThat(read(data, filter(PropertyFilter.Operator.EQUAL), ModelVersions.LIVE))
                .as("entities read by hot = true").hasSize(10);
        assertThat(read(data, filter(PropertyFilter.Operator.GREATER_THAN_OR_EQUAL), ModelVersions.LIVE))
                .as("entities read by hot >= true: no index, every entity").hasSize(10_000);

        long before = data.currentVersion();
        data.commit(List.of(upsert(entity(1, false)), upsert(entity(20, true)),
                Mutation.newBuilder().setDelete(key(2)).build()), Map.of());
        assertThat(matching(data, ModelVersions.LIVE)).as("hot now").containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L,
                20L);
        assertThat(matching(data, before)).as("hot before the commit").containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L,
                9L, 10L);
        data.commit(List.of(upsert(entity(30, true))), Map.of());
        assertThat(matching(data, ModelVersions.LIVE)).as("a write after the index was made lists itself").contains(30L);
    }

    private static Entity entity(long id, boolean hot) {
        return Entity.newBuilder().setKey(key(id)).putProperties("hot", Value.newBuilder().setBooleanValue(hot).build())
                .build();
    }

    private static Key key(long id) {
        return Key.newBuilder().setPartitionId(PARTITION).addPath(Key.PathElement.newBuilder().setKind("K").setId(id))
                .build();
    }

    private static Mutation upsert(Entity entity) {
        return Mutation.newBuilder().setUpsert(entity).build();
    }

    private static Query filter(PropertyFilter.Operator op) {
        return Query.newBuilder().addKind(KindExpression.newBuilder().setName("K"))
                .setFilter(Filter.newBuilder().setPropertyFilter(PropertyFilter.newBuilder()
                        .setProperty(PropertyReference.newBuilder().setName("hot")).setOp(op)
                        .setValue(Value.newBuilder().setBooleanValue(true)))).build();
    }

    /** Every version the plan reads as of {@code time}, before its filters. */
    private static List<Stored> read(ModelData data, Query query, long time) {
        List<Stored> rows = new ArrayList<>();
        QueryPlan.of(data, PARTITION, query).rows(null, time).forEachRemaining(rows::add);
        return rows;
    }

    /** The ids hot = true answers as of {@code time}, in key order. */
    private static List<Long> matching(ModelData data, long time) {
        QueryPlan plan = QueryPlan.of(data, PARTITION, filter(PropertyFilter.Operator.EQUAL));
        List<Long> ids = new ArrayList<>();
        for (Iterator<Stored> rows = plan.rows(null, time); rows.hasNext(); ) {
            Entity entity = rows.next().entity();
            if (plan.matches(entity)) {
                ids.add(entity.getKey().getPath(0).getId());
            }
        }
        return ids;
    }
}
