package io.keyranger.ui.common;

import javafx.beans.value.ObservableStringValue;
import javafx.scene.Node;
import javafx.scene.control.Tooltip;
import javafx.util.Duration;

/**
 * Why a row of controls is off, said when the pointer rests on it: a disabled control shows no tooltip of its own, so
 * the row carries the reason, while there is one.
 */
public final class OffReason {
    private OffReason() {
    }

    /** Gives {@code row} a tooltip with {@code reason} while the reason is not empty. */
    public static void install(Node row, ObservableStringValue reason) {
        Tooltip why = new Tooltip();
        why.setWrapText(true);
        why.setMaxWidth(420);
        why.setShowDelay(Duration.millis(300));
        why.textProperty().bind(reason);
        reason.addListener((obs, was, now) -> show(row, why, now));
        show(row, why, reason.get());
    }

    private static void show(Node row, Tooltip why, String reason) {
        if (reason == null || reason.isEmpty()) {
            Tooltip.uninstall(row, why);
        } else {
            Tooltip.install(row, why);
        }
    }
}
