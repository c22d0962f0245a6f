package io.keyranger.ui.run;

import io.keyranger.executor.NodeStatus;
import javafx.scene.paint.Color;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/** An icon and a colour per node status, so the tree reads at a glance. */
final class StatusIcons {
    private StatusIcons() {
    }

    static FontIcon of(NodeStatus status) {
        Ikon ikon = switch (status) {
            case QUEUED -> Material2AL.HOURGLASS_EMPTY;
            case RUNNING -> Material2MZ.PLAY_ARROW;
            case SPLIT -> Material2AL.CALL_SPLIT;
            case DONE -> Material2AL.CHECK_CIRCLE;
            case FAILED -> Material2AL.ERROR;
            case CANCELLED -> Material2AL.CANCEL;
        };
        FontIcon icon = new FontIcon(ikon);
        // inline, because the theme's stylesheet sets -fx-icon-color and CSS beats setIconColor; appended, because
        // FontIcon keeps its font family in the inline style too
        icon.setStyle(icon.getStyle() + "; -fx-icon-color: " + hex(color(status)) + ";");
        return icon;
    }

    private static String hex(Color c) {
        return String.format("#%02x%02x%02x", Math.round(c.getRed() * 255), Math.round(c.getGreen() * 255),
                Math.round(c.getBlue() * 255));
    }

    static Color color(NodeStatus status) {
        return switch (status) {
            case QUEUED -> Color.GRAY;
            case RUNNING -> Color.web("#0969da");
            case SPLIT -> Color.web("#8250df");
            case DONE -> Color.web("#1a7f37");
            case FAILED -> Color.web("#cf222e");
            case CANCELLED -> Color.web("#bc4c00");
        };
    }
}
