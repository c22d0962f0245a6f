package io.keyranger.executor.local;

import io.keyranger.executor.range.RangeNode;
import io.keyranger.job.JobListener;
import io.keyranger.job.NodeStatus;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The live split tree of a run and its in-memory totals, as listeners see them: nodes, subtree entity counts and the
 * running totals, each published under a lock so that snapshots of one node (or the totals) never arrive out of order.
 */
public final class ProgressTree {
    private final String jobId;
    private final JobListener listener;
    private final Map<String, RangeNode> nodes = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> totals = new ConcurrentHashMap<>();
    private final AtomicInteger maxDepth = new AtomicInteger();

    public ProgressTree(String jobId, JobListener listener) {
        this.jobId = jobId;
        this.listener = listener;
    }

    /** The tree as stored when the run starts, with the persisted totals; everything is published once. */
    public void load(List<RangeNode> all, Map<String, Long> persisted) {
        persisted.forEach(this::addTotal);
        all.forEach(this::put);
        all.forEach(node -> addToAncestors(node, node.entities()));
        all.forEach(this::publish);
        publishTotals();
    }

    /** A node made by a split. */
    public void add(RangeNode node) {
        put(node);
        publish(node);
    }

    private void put(RangeNode node) {
        nodes.put(node.id(), node);
        maxDepth.accumulateAndGet(node.depth(), Math::max);
    }

    public List<RangeNode> nodes() {
        return List.copyOf(nodes.values());
    }

    public int size() {
        return nodes.size();
    }

    public int maxDepth() {
        return maxDepth.get();
    }

    public int failed() {
        return (int) nodes.values().stream().filter(n -> n.status() == NodeStatus.FAILED).count();
    }

    public void addTotal(String field, long value) {
        totals.computeIfAbsent(field, f -> new LongAdder()).add(value);
    }

    /** Like {@link #publish}: totals are taken and delivered under one lock, so they never arrive out of order. */
    public void publishTotals() {
        synchronized (totals) {
            listener.onTotals(snapshotTotals());
        }
    }

    /** One running total now (0 before anything was counted under it). */
    public long total(String field) {
        LongAdder total = totals.get(field);
        return total == null ? 0 : total.sum();
    }

    public Map<String, Long> snapshotTotals() {
        Map<String, Long> copy = new TreeMap<>();
        totals.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    /** Adds committed entities to a node's subtree count and every ancestor's, publishing the ancestors. */
    public void addToAncestors(RangeNode node, long entities) {
        if (entities == 0) {
            return;
        }
        for (RangeNode n = node; n != null; n = n.parentId() == null ? null : nodes.get(n.parentId())) {
            n.addToSubtree(entities);
            if (n != node) {
                publish(n);
            }
        }
    }

    /**
     * Hands the node's current state to the listener. A node is published from its own worker and from every
     * descendant's (subtree totals), so the snapshot is taken and delivered under the node's lock: listeners that keep
     * the latest snapshot per node then never see an older one arrive after a newer one.
     */
    public void publish(RangeNode node) {
        synchronized (node) {
            listener.onNode(node.snapshot(jobId));
        }
    }
}
