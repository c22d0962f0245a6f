package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.job.NodeIds;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeIdsTest {
    @Test
    void rangesSortInKeyOrderAndKindsOfAGroupSortByKindWithTheirRootFirst() {
        List<String> ids = new ArrayList<>(List.of("r10", "r2.1", "r2", "r2.0.1", "r2.0"));
        ids.sort(NodeIds::compare);
        assertThat(ids).containsExactly("r2", "r2.0", "r2.0.1", "r2.1", "r10");
        List<String> group = new ArrayList<>(List.of("Org/r1", "Event/r10", "Org", "Event/r2.1", "Event", "Ki/nd",
                "Ki/nd/r0"));
        group.sort(NodeIds::compare);
        assertThat(group).containsExactly("Event", "Event/r2.1", "Event/r10", "Ki/nd", "Ki/nd/r0", "Org", "Org/r1");
    }
}
