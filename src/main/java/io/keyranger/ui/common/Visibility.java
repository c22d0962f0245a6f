package io.keyranger.ui.common;

import javafx.scene.Node;

/** Whether a node could be seen: hidden tab contents and collapsed panes are invisible parents. */
public final class Visibility {
    private Visibility() {
    }

    /** True when the node and every parent up to the scene's root are visible. */
    public static boolean visibleWithParents(Node node) {
        for (Node at = node; at != null; at = at.getParent()) {
            if (!at.isVisible()) {
                return false;
            }
        }
        return true;
    }
}
