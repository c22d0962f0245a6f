package io.keyranger.group;

import io.keyranger.job.JobListener;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Passes one kind's job to the group's listener as a subtree: its nodes move under a root named after the kind
 * (ids {@code Kind/r3.1}), and its running totals are added to those of the kinds done before it.
 */
final class GroupTree implements JobListener {
    private final String groupId;
    private final String kind;
    private final JobListener out;
    private final Map<String, Long> before;
    private final Instant started = Instant.now();

    GroupTree(String groupId, String kind, JobListener out, Map<String, Long> before) {
        this.groupId = groupId;
        this.kind = kind;
        this.out = out;
        this.before = Map.copyOf(before);
    }

    void root(NodeStatus status, long entities) {
        out.onNode(new NodeSnapshot(groupId, kind, null, 0, null, true, null, null, status, 0, entities, entities,
                0, null, started, status.isFinal() ? Instant.now() : null));
    }

    @Override
    public void onNode(NodeSnapshot n) {
        out.onNode(new NodeSnapshot(groupId, kind + "/" + n.id(), n.parentId() == null ? kind
                : kind + "/" + n.parentId(), n.depth() + 1, n.start(), n.startInclusive(), n.end(), n.lastKey(),
                n.status(), n.pages(), n.entities(), n.subtreeEntities(), n.retries(), n.lastError(),
                n.startedAt(), n.finishedAt()));
    }

    @Override
    public void onTotals(Map<String, Long> totals) {
        Map<String, Long> all = new HashMap<>(before);
        totals.forEach((k, v) -> all.merge(k, v, Long::sum));
        out.onTotals(all);
    }

    @Override
    public void onServerStatus(String problem) {
        out.onServerStatus(problem);
    }
}
