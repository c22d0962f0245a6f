package io.keyranger.executor.store;

import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.CoveredSpans;
import io.keyranger.executor.cells.CellRecords;
import io.keyranger.keys.KeyRange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What is left of a job, from its ledgers, whoever committed them: the cells not done, and the spans covered in
 * them so far, for a run that goes on with it (a resume, a take-over, a job another runner started).
 */
public final class PendingCells {
    private final CellPlan cells;
    private final List<Integer> pending;
    private final Map<Integer, CoveredSpans> covered;

    private PendingCells(CellPlan cells, List<Integer> pending, Map<Integer, CoveredSpans> covered) {
        this.cells = cells;
        this.pending = pending;
        this.covered = covered;
    }

    public static PendingCells read(JobStore store, String jobId, CellPlan cells) {
        Map<Integer, CoveredSpans> covered = new HashMap<>();
        Set<Integer> done = new HashSet<>();
        CellRecords.byCell(store.loadLedgers(jobId, store.datastore())).forEach((cell, ledgers) -> {
            covered.put(cell, CellRecords.spans(ledgers, cells.order()));
            if (CellRecords.done(ledgers, cells.cell(cell), cells.order())) {
                done.add(cell);
            }
        });
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < cells.cells(); i++) {
            if (!done.contains(i)) {
                pending.add(i);
            }
        }
        return new PendingCells(cells, pending, covered);
    }

    /** The covered spans of a cell as read (empty for a cell no commit reached). */
    public CoveredSpans covered(int cell) {
        CoveredSpans spans = covered.get(cell);
        return spans != null ? spans : new CoveredSpans(cells.order());
    }

    /**
     * The pending cells as ranges to start from: runs of consecutive pending cells, cut at cell bounds into about
     * {@code shards} ranges of as many cells each (so that a run over most of the job starts as wide as a new one).
     */
    public List<KeyRange> ranges(int shards) {
        List<KeyRange> ranges = new ArrayList<>();
        int perRange = Math.max(1, (int) Math.ceil(pending.size() / (double) Math.max(1, shards)));
        int i = 0;
        while (i < pending.size()) {
            int first = pending.get(i);
            int last = first;
            while (i + 1 < pending.size() && pending.get(i + 1) == last + 1 && last - first + 1 < perRange) {
                i++;
                last = pending.get(i);
            }
            ranges.add(KeyRange.of(cells.order(), cells.cell(first).start(), cells.cell(last).end()));
            i++;
        }
        return ranges;
    }
}
