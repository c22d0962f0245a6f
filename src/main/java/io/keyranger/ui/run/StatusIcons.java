package io.keyranger.ui.run;

import io.keyranger.job.NodeStatus;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/**
 * An icon and a colour per node status, so the tree reads at a glance. The colours are style classes
 * ({@code status-running}, ...) in the app's stylesheet, so that a cell keeps one icon and restyles it instead of
 * parsing a new inline style on every update.
 */
final class StatusIcons {
    private StatusIcons() {
    }

    static Ikon ikon(NodeStatus status) {
        return switch (status) {
            case QUEUED -> Material2AL.HOURGLASS_EMPTY;
            case RUNNING -> Material2MZ.PLAY_ARROW;
            case SPLIT -> Material2AL.CALL_SPLIT;
            case DONE -> Material2AL.CHECK_CIRCLE;
            case FAILED -> Material2AL.ERROR;
            case CANCELLED -> Material2AL.CANCEL;
        };
    }

    static String styleClass(NodeStatus status) {
        return "status-" + status.name().toLowerCase();
    }

    /** Makes {@code icon} show {@code status}. */
    static void show(FontIcon icon, NodeStatus status) {
        icon.setIconCode(ikon(status));
        icon.getStyleClass().removeIf(c -> c.startsWith("status-"));
        icon.getStyleClass().add(styleClass(status));
    }
}
