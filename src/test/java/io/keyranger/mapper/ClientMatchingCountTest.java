package io.keyranger.mapper;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a dry run counts as matching the conditions applied on the client: the entities the filter passed. A key whose
 * entity was deleted between the keys query and the lookup is read, but has no entity to match, for GQL and CEL alike.
 */
class ClientMatchingCountTest {
    private static final List<Key> KEYS = List.of(key(1), key(2), key(3), key(4));
    /** Key 4's entity is gone by the lookup; of the others only 3 meets balance > 20. */
    private static final List<Entity> LOOKED_UP = List.of(ledger(1, 10), ledger(2, 20), ledger(3, 30));

    @Test
    void aGqlConditionCountsOnlyTheEntitiesItPassed() {
        MapperSpec spec = MapperSpec.parse("{\"template\":\"delete\",\"gql\":\"SELECT * FROM Ledger WHERE tier = 'pro' "
                + "AND balance > 20\"}");
        assertThat(Mappers.clientConditions(spec)).contains("balance > 20");
        assertThat(matching(spec)).isEqualTo(1);
    }

    @Test
    void aCelWhereCountsOnlyTheEntitiesItPassed() {
        MapperSpec spec = MapperSpec.parse("{\"template\":\"delete\",\"where\":\"balance > 20\"}");
        assertThat(matching(spec)).isEqualTo(1);
    }

    private static long matching(MapperSpec spec) {
        MapResult result = Mappers.create(spec).map(new Page(KEYS, LOOKED_UP));
        return Mappers.matching(spec, result, KEYS.size());
    }

    private static Key key(long id) {
        return Key.newBuilder("p", "Ledger", id).build();
    }

    private static Entity ledger(long id, long balance) {
        return Entity.newBuilder(key(id)).set("tier", "pro").set("balance", balance).build();
    }
}
