package io.keyranger.job;

/** Where a range node is in its life. */
public enum NodeStatus {
    QUEUED, RUNNING, SPLIT, DONE, FAILED, CANCELLED;

    /** Whether the node's work is finished for good: done, or handed to its two children. */
    public boolean isFinal() {
        return this == SPLIT || this == DONE;
    }
}
