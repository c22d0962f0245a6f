package io.keyranger.ui.common;

import java.util.function.Supplier;
import javafx.scene.control.Control;
import javafx.scene.control.Labeled;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseEvent;

/**
 * A tooltip that a control gets when the pointer first enters it, not when it is made or filled. A tooltip is a popup
 * window with a scene of its own, styled on creation: a table that made one per cell on every update spent most of a
 * 79 ms stall (RunTabResponsivenessBenchmark, first job after start-up) on tooltips for the rows of a hidden tab.
 * Once made, the tooltip is kept and kept up to date: with the control's text for a {@link Labeled}, or when
 * {@link #update} is called.
 */
public final class HoverTooltip {
    /** In the control's properties: how to bring its tooltip up to date. */
    private static final String REFRESH = "keyranger.hoverTooltip.refresh";
    /** In the control's properties: a tooltip taken off while the text was empty, to reuse. */
    private static final String KEPT = "keyranger.hoverTooltip.kept";

    /** The widest a tooltip gets before its text wraps, in pixels. */
    public static final double MAX_WIDTH = 640;

    private HoverTooltip() {
    }

    /**
     * Gives the control a tooltip with {@code text} when the pointer enters it; none while the text is null or empty.
     * For a {@link Labeled} control, changes of its text go through {@link #update}.
     */
    public static void install(Control control, Supplier<String> text) {
        Runnable refresh = () -> {
            String now = text.get();
            Tooltip tip = control.getTooltip();
            if (now == null || now.isEmpty()) {
                if (tip != null) {
                    tip.setText("");
                    control.setTooltip(null);
                    control.getProperties().put(KEPT, tip);
                }
                return;
            }
            if (tip == null) {
                tip = (Tooltip) control.getProperties().get(KEPT);
                if (tip == null) {
                    tip = new Tooltip();
                    // a long line (a job with its backup's path) wraps rather than run off the screen
                    tip.setWrapText(true);
                    tip.setMaxWidth(MAX_WIDTH);
                }
                control.setTooltip(tip);
            }
            tip.setText(now);
        };
        control.addEventHandler(MouseEvent.MOUSE_ENTERED, e -> refresh.run());
        control.getProperties().put(REFRESH, refresh);
        if (control instanceof Labeled labeled) {
            labeled.textProperty().addListener((obs, old, now) -> update(control));
        }
    }

    /**
     * Brings the tooltip up to date with the text: changes, removes or (if the pointer is over the control) makes it.
     * For controls whose tooltip text is not their own text, call it when that text may have changed. A control the
     * pointer is not over, and that has no tooltip yet, is left alone.
     */
    public static void update(Control control) {
        if ((control.getTooltip() != null || control.isHover())
                && control.getProperties().get(REFRESH) instanceof Runnable refresh) {
            refresh.run();
        }
    }

    /** As {@link #install(Control, Supplier)} with the control's own text; returns the control. */
    public static <C extends Labeled> C ofText(C control) {
        install(control, control::getText);
        return control;
    }
}
