package io.keyranger.ui.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.job.NodeSnapshot;
import io.keyranger.support.Nodes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RowBacklogTest {
    private final Map<String, NodeSnapshot> shown = new HashMap<>();
    private final List<String> order = new ArrayList<>();
    private final Set<String> offered = new HashSet<>();

    private static NodeSnapshot node(String id, long pages) {
        return Nodes.node(id).pages(pages).entities(pages).get();
    }

    private List<NodeSnapshot> tick(RowBacklog backlog, List<NodeSnapshot> incoming, boolean all) {
        incoming.forEach(node -> offered.add(node.id()));
        List<NodeSnapshot> now = backlog.take(incoming, shown.size(), shown::containsKey, all);
        for (NodeSnapshot node : now) {
            assertThat(node.parentId() == null || shown.containsKey(node.parentId()) || !offered.contains(node.parentId()))
                    .as("parent of %s shown first", node.id()).isTrue();
            if (shown.put(node.id(), node) == null) {
                order.add(node.id());
            }
        }
        return now;
    }

    @Test
    void aSmallTreeGetsAFewNewRowsPerTickParentsFirstAndKeepsTheLatestSnapshots() {
        RowBacklog backlog = new RowBacklog(10, 2);
        List<NodeSnapshot> first = List.of(node("r0", 0), node("r1", 0), node("r2", 0), node("r0.0", 0),
                node("r0.1", 0));
        assertThat(tick(backlog, first, false)).extracting(NodeSnapshot::id).containsExactly("r0", "r1");
        assertThat(backlog.size()).isEqualTo(3);
        // an update to a shown row goes in at once; an update to a held row replaces the held snapshot
        List<NodeSnapshot> second = tick(backlog, List.of(node("r0", 5), node("r0.0", 7)), false);
        assertThat(second).extracting(NodeSnapshot::id).containsExactly("r0", "r2", "r0.0");
        assertThat(shown.get("r0.0").pages()).isEqualTo(7);
        assertThat(tick(backlog, List.of(), false)).extracting(NodeSnapshot::id).containsExactly("r0.1");
        assertThat(backlog.size()).isZero();
        assertThat(order).containsExactly("r0", "r1", "r2", "r0.0", "r0.1");
    }

    @Test
    void aChildWaitsForItsHeldParentAndAnOrphanGoesInAsItIs() {
        RowBacklog backlog = new RowBacklog(10, 1);
        tick(backlog, List.of(node("r0", 0), node("r1", 0), node("r1.0", 0), node("r9.0", 0)), false);
        assertThat(order).containsExactly("r0");
        tick(backlog, List.of(), false);
        assertThat(order).containsExactly("r0", "r1");
        tick(backlog, List.of(), false);
        tick(backlog, List.of(), false);
        assertThat(order).containsExactly("r0", "r1", "r1.0", "r9.0");
    }

    @Test
    void aFullTreeOrTheJobsEndTakesEverything() {
        RowBacklog backlog = new RowBacklog(3, 1);
        List<NodeSnapshot> many = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            many.add(node("r" + i, 0));
        }
        tick(backlog, many, false);
        tick(backlog, List.of(), false);
        tick(backlog, List.of(), false);
        assertThat(shown).hasSize(3);
        tick(backlog, List.of(), false);
        assertThat(shown).hasSize(50);

        RowBacklog ending = new RowBacklog(100, 1);
        shown.clear();
        tick(ending, many, false);
        assertThat(shown).hasSize(1);
        tick(ending, List.of(), true);
        assertThat(shown).hasSize(50);
        assertThat(ending.size()).isZero();
    }
}
