package io.keyranger.ui.run;

import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.keys.KeyFormat;
import javafx.scene.paint.Color;

/** What the key-space map's bands mean: a colour per status, and the words hovering over a range shows. */
final class MapLegend {
    static final Color QUEUED = Color.web("#afb8c1");
    static final Color RUNNING = Color.web("#0969da");
    static final Color SPLIT = Color.web("#8250df");
    static final Color DONE = Color.web("#1a7f37");
    static final Color FAILED = Color.web("#cf222e");
    static final Color CANCELLED = Color.web("#bc4c00");

    private MapLegend() {
    }

    static Color colour(NodeStatus status) {
        return switch (status) {
            case QUEUED -> QUEUED;
            case RUNNING -> RUNNING;
            case SPLIT -> SPLIT;
            case DONE -> DONE;
            case FAILED -> FAILED;
            case CANCELLED -> CANCELLED;
        };
    }

    /** What hovering over a range shows. */
    static String describe(NodeRow row) {
        if (row == null) {
            return "The whole job: every planned range below, in key order. Wheel: zoom; drag: pan; double click: "
                    + "all of it.";
        }
        NodeSnapshot s = row.snapshot();
        return row.id() + "  ·  " + s.status().name().toLowerCase()
                + "\nfrom " + (s.start() == null ? "the first key" : (s.startInclusive() ? "" : "after ")
                + KeyFormat.format(s.start()))
                + "\nto " + (s.end() == null ? "the last key" : "before " + KeyFormat.format(s.end()))
                + String.format("%n%,d entities here, %,d with its splits; %,d pages; %d retries", s.entities(),
                s.subtreeEntities(), s.pages(), s.retries())
                + (s.lastError() == null ? "" : "\nfailed: " + s.lastError());
    }
}
