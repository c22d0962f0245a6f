package io.keyranger.ui.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.job.NodeSnapshot;
import io.keyranger.support.Nodes;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CoalescingJobFeedTest {
    private static NodeSnapshot node(String id, int depth, long entities) {
        NodeSnapshot node = Nodes.node(id).entities(entities).get();
        assertThat(node.depth()).isEqualTo(depth);
        return node;
    }

    @Test
    void thousandsOfEventsBecomeOneBatchWithTheLatestSnapshotPerNode() {
        CoalescingJobFeed feed = new CoalescingJobFeed();
        for (int i = 0; i < 5_000; i++) {
            feed.onNode(node("r" + (i % 10), 0, i));
            feed.onNode(node("r" + (i % 10) + ".0", 1, i));
            feed.onTotals(Map.of("read", (long) i));
        }
        CoalescingJobFeed.Batch batch = feed.drain();
        assertThat(batch.nodes()).hasSize(20);
        assertThat(batch.nodes().subList(0, 10)).allMatch(n -> n.depth() == 0);
        assertThat(batch.nodes()).filteredOn(n -> n.id().equals("r3")).singleElement()
                .satisfies(n -> assertThat(n.entities()).isEqualTo(4_993));
        assertThat(batch.totals()).containsEntry("read", 4_999L);
        CoalescingJobFeed.Batch empty = feed.drain();
        assertThat(empty.nodes()).isEmpty();
        assertThat(empty.totals()).isNull();
    }

    @Test
    void nodeIdsSortNumerically() {
        assertThat(LiveTree.compareIds("r2", "r10")).isNegative();
        assertThat(LiveTree.compareIds("r3.0", "r3.1")).isNegative();
        assertThat(LiveTree.compareIds("r3", "r3.0")).isNegative();
    }
}
