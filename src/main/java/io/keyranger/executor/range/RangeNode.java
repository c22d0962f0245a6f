package io.keyranger.executor.range;

import com.google.cloud.datastore.Key;
import io.keyranger.executor.range.Checkpoint;
import io.keyranger.executor.range.ProbeMemory;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.job.ProblemExamples;
import io.keyranger.keys.KeyRange;
import java.time.Instant;
import java.util.List;

/**
 * A node of the live split tree, owned by one worker at a time, which alone changes its state. {@code range} is the
 * node's whole range; {@code checkpoint} what it has committed, so {@link #remaining()} is where work resumes.
 */
public final class RangeNode {
    public final String id;
    public final String parentId;
    public final int depth;
    public final KeyRange range;
    public volatile Checkpoint checkpoint = Checkpoint.START;
    public volatile NodeStatus status;
    public volatile long subtreeEntities;
    public volatile int retries;
    public volatile String lastError;
    /** Whether the failure is one retrying will not fix (a refusal, not a timeout). */
    public volatile boolean failurePermanent;
    /** Keys of the chunk a failed range could not commit (this run's memory only). */
    public volatile long failedKeys;
    /** A few entities this range skipped, as {@link ProblemExamples} entries; persisted with each commit. */
    public volatile List<String> problemExamples = List.of();
    public volatile Instant startedAt;
    public volatile Instant finishedAt;
    /** In memory only: what probes for a split point found empty. */
    public final ProbeMemory probes = new ProbeMemory();

    public RangeNode(String id, String parentId, int depth, KeyRange range) {
        this.id = id;
        this.parentId = parentId;
        this.depth = depth;
        this.range = range;
        this.status = NodeStatus.QUEUED;
    }

    public Key lastKey() {
        return checkpoint.lastKey();
    }

    public long entities() {
        return checkpoint.entities();
    }

    /** The part of the range not yet committed. */
    public KeyRange remaining() {
        return lastKey() == null ? range : range.advancePast(lastKey());
    }

    public NodeSnapshot snapshot(String jobId) {
        return new NodeSnapshot(jobId, id, parentId, depth, range.start(), range.startInclusive(), range.end(), lastKey(), status,
                checkpoint.pages(), checkpoint.entities(),
                subtreeEntities, retries, lastError, startedAt, finishedAt);
    }
}
