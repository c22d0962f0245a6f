package io.keyranger.executor.range;

import com.google.cloud.datastore.Key;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.job.ProblemExamples;
import io.keyranger.keys.KeyRange;
import java.time.Instant;
import java.util.List;

/**
 * A node of the live split tree, owned by one worker at a time, which alone moves it from state to state
 * ({@link #started}, {@link #committed}, {@link #retried}, then {@link #finished}, {@link #split}, {@link #failed} or
 * {@link #cancelled}). {@link #range()} is the node's whole range; its checkpoint what it has committed, so
 * {@link #remaining()} is where work resumes. Other threads read it (the listeners' snapshots, a descendant adding to
 * its subtree): its state is one immutable value behind a volatile reference, so a reader never sees half a change.
 */
public final class RangeNode {
    /**
     * What a cell's ledger records of a node (and what its worker changes).
     *
     * @param status           where the node is
     * @param checkpoint       what it committed
     * @param retries          calls retried
     * @param lastError        the last error, or null
     * @param failurePermanent whether its failure is one retrying will not fix (a refusal, not a timeout)
     * @param problemExamples  a few entities it skipped, as {@link ProblemExamples} entries
     * @param startedAt        when it started, or null
     * @param finishedAt       when it ended, or null
     */
    public record State(NodeStatus status, Checkpoint checkpoint, int retries, String lastError,
                        boolean failurePermanent, List<String> problemExamples, Instant startedAt, Instant finishedAt) {
        /** A node no worker has started. */
        public static final State QUEUED = new State(NodeStatus.QUEUED, Checkpoint.START, 0, null, false, List.of(),
                null, null);

        public State {
            problemExamples = List.copyOf(problemExamples);
        }

        private State ended(NodeStatus now) {
            return new State(now, checkpoint, retries, lastError, failurePermanent, problemExamples, startedAt,
                    Instant.now());
        }
    }

    private final String id;
    private final String parentId;
    private final int depth;
    private final KeyRange range;
    private volatile State state;
    private long subtreeEntities; // guarded by this: every descendant's worker adds to it
    /** Keys of the chunk a failed range could not commit (this run's memory only). */
    private volatile long failedKeys;
    /** In memory only: what probes for a split point found empty. */
    private final ProbeMemory probes = new ProbeMemory();

    /** A node no worker has started. */
    public RangeNode(String id, String parentId, int depth, KeyRange range) {
        this(id, parentId, depth, range, State.QUEUED);
    }

    /** A node as its ledger recorded it. */
    public RangeNode(String id, String parentId, int depth, KeyRange range, State state) {
        this.id = id;
        this.parentId = parentId;
        this.depth = depth;
        this.range = range;
        this.state = state;
    }

    public String id() {
        return id;
    }

    /** The node it was split from, or null for a root. */
    public String parentId() {
        return parentId;
    }

    public int depth() {
        return depth;
    }

    /** The node's whole range. */
    public KeyRange range() {
        return range;
    }

    /** Its state now, as its ledger records it. */
    public State state() {
        return state;
    }

    public NodeStatus status() {
        return state.status();
    }

    public Checkpoint checkpoint() {
        return state.checkpoint();
    }

    public String lastError() {
        return state.lastError();
    }

    public boolean failurePermanent() {
        return state.failurePermanent();
    }

    public List<String> problemExamples() {
        return state.problemExamples();
    }

    public Key lastKey() {
        return state.checkpoint().lastKey();
    }

    public long entities() {
        return state.checkpoint().entities();
    }

    /** The part of the range not yet committed. */
    public KeyRange remaining() {
        return lastKey() == null ? range : range.advancePast(lastKey());
    }

    /** What probes for a split point of this node found empty (this run's memory only). */
    public ProbeMemory probes() {
        return probes;
    }

    /** Keys of the chunk this node could not commit when it failed (this run's memory only). */
    public long failedKeys() {
        return failedKeys;
    }

    /** A worker took it up (again): running, started when it first started. */
    public void started() {
        State s = state;
        state = new State(NodeStatus.RUNNING, s.checkpoint(), s.retries(), s.lastError(), s.failurePermanent(),
                s.problemExamples(), s.startedAt() != null ? s.startedAt() : Instant.now(), s.finishedAt());
    }

    /** A chunk of {@code keys} keys ending at {@code last} committed. */
    public void committed(Key last, int keys) {
        State s = state;
        state = new State(s.status(), s.checkpoint().advance(last, keys), s.retries(), s.lastError(),
                s.failurePermanent(), s.problemExamples(), s.startedAt(), s.finishedAt());
    }

    /** A call was retried after {@code error}. */
    public void retried(String error) {
        State s = state;
        state = new State(s.status(), s.checkpoint(), s.retries() + 1, error, s.failurePermanent(),
                s.problemExamples(), s.startedAt(), s.finishedAt());
    }

    /** A commit of {@code keys} keys failed for good (the node fails next). */
    public void couldNotCommit(long keys) {
        failedKeys = keys;
    }

    /** Failed for good ({@code permanent}: retrying will not fix it), because of {@code reason}. */
    public void failed(String reason, boolean permanent) {
        State s = state;
        state = new State(NodeStatus.FAILED, s.checkpoint(), s.retries(), reason, permanent, s.problemExamples(),
                s.startedAt(), Instant.now());
    }

    /** Its rest was cut into children, which go on with it. */
    public void split() {
        state = state.ended(NodeStatus.SPLIT);
    }

    /** Its worker reached the end of its range: a running node is done, one split or stopped meanwhile stays so. */
    public boolean finished() {
        if (state.status() != NodeStatus.RUNNING) {
            return false;
        }
        state = state.ended(NodeStatus.DONE);
        return true;
    }

    /** Stopped before its end (the job was cancelled, paused out, or taken over). */
    public void cancelled() {
        State s = state;
        state = new State(NodeStatus.CANCELLED, s.checkpoint(), s.retries(), s.lastError(), s.failurePermanent(),
                s.problemExamples(), s.startedAt(), s.finishedAt());
    }

    /** Adds committed entities to the count of this node's subtree. */
    public synchronized void addToSubtree(long entities) {
        subtreeEntities += entities;
    }

    public synchronized NodeSnapshot snapshot(String jobId) {
        State s = state;
        return new NodeSnapshot(jobId, id, parentId, depth, range.start(), range.startInclusive(), range.end(),
                s.checkpoint().lastKey(), s.status(), s.checkpoint().pages(), s.checkpoint().entities(),
                subtreeEntities, s.retries(), s.lastError(), s.startedAt(), s.finishedAt());
    }
}
