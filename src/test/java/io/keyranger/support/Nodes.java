package io.keyranger.support;

import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;

/**
 * A range's snapshot for tests of the progress feed and tree, by its id: "r3" is a root, "r3.0.1" its grandchild
 * (the parent and depth follow from the id). {@code Nodes.node("r3.0").entities(40).status(NodeStatus.DONE).get()}.
 */
public final class Nodes {
    private final String id;
    private NodeStatus status = NodeStatus.RUNNING;
    private long pages;
    private long entities;
    private long subtree = -1;

    private Nodes(String id) {
        this.id = id;
    }

    public static Nodes node(String id) {
        return new Nodes(id);
    }

    public Nodes status(NodeStatus value) {
        this.status = value;
        return this;
    }

    public Nodes pages(long value) {
        this.pages = value;
        return this;
    }

    /** Entities of the range itself; its subtree's too unless {@link #subtree} says otherwise. */
    public Nodes entities(long value) {
        this.entities = value;
        return this;
    }

    public Nodes subtree(long value) {
        this.subtree = value;
        return this;
    }

    public NodeSnapshot get() {
        int dot = id.lastIndexOf('.');
        int depth = (int) id.chars().filter(c -> c == '.').count();
        return new NodeSnapshot("j", id, dot < 0 ? null : id.substring(0, dot), depth, null, true, null, null, status,
                pages, entities, subtree < 0 ? entities : subtree, 0, null, null, null);
    }
}
