package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.executor.cells.CellPlan;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CellPlanTest {
    /** Ledger names as stored jobs have them: "c" and the cell, four digits at least, so they list in cell order. */
    @Test
    void cellIdsArePaddedToFourDigitsAndSortInCellOrder() {
        assertThat(List.of(0, 7, 42, 999, 1000, 65535).stream().map(CellPlan::nodeId))
                .containsExactly("c0000", "c0007", "c0042", "c0999", "c1000", "c65535");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(CellPlan.nodeId(i));
            assertThat(ids.get(i)).isEqualTo(String.format("c%04d", i));
        }
        assertThat(ids).isSorted();
    }
}
