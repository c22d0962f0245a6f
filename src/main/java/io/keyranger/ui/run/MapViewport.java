package io.keyranger.ui.run;

/**
 * Which part of the job the key-space map shows: a zoom (1 = all of it) and the job fraction at its left edge. The
 * wheel zooms around the pointer, a drag pans, a reset shows all of it; the offset never shows past either end.
 */
final class MapViewport {
    private static final double MAX_ZOOM = 100_000;
    private double zoom = 1;
    private double offset;
    private double dragFrom = Double.NaN;
    private double dragOffset;

    double zoom() {
        return zoom;
    }

    double offset() {
        return offset;
    }

    void reset() {
        zoom = 1;
        offset = 0;
    }

    /** Zooms in (a positive wheel delta) or out around {@code x} of a map {@code width} wide; whether it changed. */
    boolean zoomAt(double x, double width, double delta) {
        if (width <= 0 || delta == 0) {
            return false;
        }
        double at = offset + x / width / zoom; // the job fraction under the pointer stays put
        zoom = Math.max(1, Math.min(MAX_ZOOM, zoom * (delta > 0 ? 1.25 : 0.8)));
        offset = clamp(at - x / width / zoom);
        return true;
    }

    void press(double x) {
        dragFrom = x;
        dragOffset = offset;
    }

    /** Pans with a drag that reached {@code x} of a map {@code width} wide; whether it changed. */
    boolean drag(double x, double width) {
        if (Double.isNaN(dragFrom) || width <= 0) {
            return false;
        }
        offset = clamp(dragOffset - (x - dragFrom) / width / zoom);
        return true;
    }

    private double clamp(double value) {
        return Math.max(0, Math.min(1 - 1 / zoom, value));
    }
}
