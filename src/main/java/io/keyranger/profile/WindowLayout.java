package io.keyranger.profile;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the main window was when it last closed: its normal (not maximized) bounds, whether it was maximized, and
 * the divider positions of its split panes by name ("main", "entities"). Stored as {@code "window"} in
 * {@code settings.json}; the GUI checks the bounds against the screens it finds before using them.
 *
 * @param x         the window's left edge in screen coordinates, when not maximized
 * @param y         its top edge
 * @param width     its width; not positive means "no size remembered"
 * @param height    its height
 * @param maximized whether it was maximized
 * @param dividers  split-pane divider positions (0 to 1) by pane name; never null
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record WindowLayout(double x, double y, double width, double height, boolean maximized,
                           Map<String, Double> dividers) {

    public WindowLayout {
        Map<String, Double> valid = new LinkedHashMap<>();
        if (dividers != null) {
            dividers.forEach((name, position) -> {
                if (name != null && position != null && position >= 0 && position <= 1) {
                    valid.put(name, position);
                }
            });
        }
        dividers = Map.copyOf(valid);
    }

    /** Whether a size was remembered (a file written by hand may leave it out). */
    public boolean hasSize() {
        return width > 0 && height > 0 && Double.isFinite(width) && Double.isFinite(height)
                && Double.isFinite(x) && Double.isFinite(y);
    }

    /** The remembered position of the named split pane's first divider, or the fallback. */
    public double divider(String pane, double fallback) {
        return dividers.getOrDefault(pane, fallback);
    }
}
