package io.keyranger.app;

import io.keyranger.profile.WindowLayout;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import javafx.geometry.Rectangle2D;

/**
 * Where the main window opens, from the screens there are now and the layout remembered last time. A first start
 * fills a small screen (maximized) and takes 80% of a larger one, up to 1600 x 1000, centred. A remembered window
 * comes back where it was unless no screen shows enough of its top edge to grab it (a monitor was unplugged); then
 * its size is kept and it is centred on the primary screen. A size larger than its screen is shrunk to fit.
 */
final class WindowPlacement {
    /** Below this (visual bounds) a screen is small: the window opens maximized. */
    static final double SMALL_WIDTH = 1366;
    static final double SMALL_HEIGHT = 800;
    static final double MAX_WIDTH = 1600;
    static final double MAX_HEIGHT = 1000;
    static final double SHARE = 0.8;
    /** How much of the window's top edge a screen must show for a remembered position to count. */
    private static final double GRAB_WIDTH = 120;
    private static final double GRAB_HEIGHT = 40;
    private static final double MIN_SIZE = 320;

    /**
     * Where to put the window.
     *
     * @param bounds    its normal (not maximized) bounds
     * @param maximized whether to maximize it once shown
     */
    record Placement(Rectangle2D bounds, boolean maximized) {
    }

    private WindowPlacement() {
    }

    /**
     * @param primary the primary screen's visual bounds
     * @param screens every screen's visual bounds (the primary's included)
     * @param saved   the remembered layout, or null
     */
    static Placement place(Rectangle2D primary, List<Rectangle2D> screens, WindowLayout saved) {
        if (saved == null || !saved.hasSize()) {
            return firstStart(primary);
        }
        Rectangle2D wanted = new Rectangle2D(saved.x(), saved.y(), Math.max(MIN_SIZE, saved.width()),
                Math.max(MIN_SIZE, saved.height()));
        Optional<Rectangle2D> screen = screens.stream().filter(s -> grabbable(wanted, s))
                .max(Comparator.comparingDouble(s -> overlap(wanted, s)));
        if (screen.isEmpty()) {
            return new Placement(centred(primary, fit(wanted.getWidth(), primary.getWidth()),
                    fit(wanted.getHeight(), primary.getHeight())), saved.maximized());
        }
        return new Placement(inside(screen.get(), wanted), saved.maximized());
    }

    static Placement firstStart(Rectangle2D screen) {
        double width = Math.min(MAX_WIDTH, Math.round(screen.getWidth() * SHARE));
        double height = Math.min(MAX_HEIGHT, Math.round(screen.getHeight() * SHARE));
        boolean small = screen.getWidth() < SMALL_WIDTH || screen.getHeight() < SMALL_HEIGHT;
        return new Placement(centred(screen, width, height), small);
    }

    /** Whether the screen shows enough of the window's top edge (where the title bar is) to move it. */
    private static boolean grabbable(Rectangle2D window, Rectangle2D screen) {
        double left = Math.max(window.getMinX(), screen.getMinX());
        double right = Math.min(window.getMaxX(), screen.getMaxX());
        return right - left >= GRAB_WIDTH && window.getMinY() >= screen.getMinY() - GRAB_HEIGHT
                && window.getMinY() <= screen.getMaxY() - GRAB_HEIGHT;
    }

    private static double overlap(Rectangle2D a, Rectangle2D b) {
        double w = Math.min(a.getMaxX(), b.getMaxX()) - Math.max(a.getMinX(), b.getMinX());
        double h = Math.min(a.getMaxY(), b.getMaxY()) - Math.max(a.getMinY(), b.getMinY());
        return w > 0 && h > 0 ? w * h : 0;
    }

    /** The window shrunk to the screen if larger, and moved in so that none of it hangs off. */
    private static Rectangle2D inside(Rectangle2D screen, Rectangle2D window) {
        double width = fit(window.getWidth(), screen.getWidth());
        double height = fit(window.getHeight(), screen.getHeight());
        double x = Math.min(Math.max(window.getMinX(), screen.getMinX()), screen.getMaxX() - width);
        double y = Math.min(Math.max(window.getMinY(), screen.getMinY()), screen.getMaxY() - height);
        return new Rectangle2D(x, y, width, height);
    }

    private static double fit(double size, double available) {
        return Math.min(size, available);
    }

    private static Rectangle2D centred(Rectangle2D screen, double width, double height) {
        return new Rectangle2D(screen.getMinX() + Math.round((screen.getWidth() - width) / 2),
                screen.getMinY() + Math.round((screen.getHeight() - height) / 2), width, height);
    }
}
