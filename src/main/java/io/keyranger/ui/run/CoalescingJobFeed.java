package io.keyranger.ui.run;

import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.NodeSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Collects a job's events on worker threads and hands them to the FX thread in batches: only the latest snapshot
 * of each node is kept, so thousands of events a second become one small batch per UI tick.
 */
final class CoalescingJobFeed implements JobListener {
    private final Map<String, NodeSnapshot> pendingNodes = new ConcurrentHashMap<>();
    private final AtomicReference<Map<String, Long>> latestTotals = new AtomicReference<>();
    private final AtomicReference<JobResult> finished = new AtomicReference<>();
    private final AtomicReference<String> serverStatus = new AtomicReference<>();

    /**
     * One tick's worth of events.
     *
     * @param nodes    changed nodes, parents before children
     * @param totals   the latest in-memory totals, or null if unchanged
     * @param finished the job's result once it ended, else null
     * @param serverStatus a problem reaching the server, "" when it is back, null when unchanged
     */
    record Batch(List<NodeSnapshot> nodes, Map<String, Long> totals, JobResult finished, String serverStatus) {
    }

    @Override
    public void onServerStatus(String problem) {
        serverStatus.set(problem == null ? "" : problem);
    }

    @Override
    public void onNode(NodeSnapshot node) {
        pendingNodes.put(node.id(), node);
    }

    @Override
    public void onTotals(Map<String, Long> totals) {
        latestTotals.set(totals);
    }

    @Override
    public void onFinished(JobResult result) {
        finished.set(result);
    }

    Batch drain() {
        List<NodeSnapshot> nodes = new ArrayList<>(pendingNodes.size());
        for (String id : List.copyOf(pendingNodes.keySet())) {
            NodeSnapshot node = pendingNodes.remove(id);
            if (node != null) {
                nodes.add(node);
            }
        }
        nodes.sort((a, b) -> Integer.compare(a.depth(), b.depth()));
        return new Batch(nodes, latestTotals.getAndSet(null), finished.getAndSet(null), serverStatus.getAndSet(null));
    }
}
