package io.keyranger.ui.run;

import java.util.Map;

/**
 * What the Run tab shows of one job, run here or inspected: its split tree, its clock and chart, and its status
 * (summary, totals, timing, problems). The tab owns it; the job run here reports to it.
 *
 * @param tree   the split tree
 * @param meter  the clock and the throughput chart
 * @param status the summary, totals, timing and problems
 */
record JobDisplay(LiveTree tree, ThroughputMeter meter, RunStatus status) {
    /** What the empty tree says while a job here has no ranges yet (it plans them, or reads its file first). */
    static final String NO_RANGES_YET = "No ranges yet";
    /** What the empty tree says beside a job that ran or was inspected and has none to show. */
    static final String JOB_WITHOUT_RANGES = "No ranges to show for this job";

    /** Shows no job: no tree, chart, totals or problems. */
    void clear() {
        tree.clear();
        tree.changed();
        meter.clear();
        status.setTotals(Map.of());
        status.setProblems("");
    }
}
