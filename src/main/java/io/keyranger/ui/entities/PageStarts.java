package io.keyranger.ui.entities;

import com.google.cloud.datastore.Cursor;
import java.util.ArrayList;
import java.util.List;

/**
 * Where each page of the browser's listing starts: the first at the start, each later one at the cursor where the page
 * before it ended, learned as pages are shown, so Previous and Reload go back to a page exactly.
 */
final class PageStarts {
    private final List<Cursor> starts = new ArrayList<>();
    private Cursor nextStart;

    PageStarts() {
        reset();
    }

    /** Back to one known page, the first. */
    void reset() {
        starts.clear();
        starts.add(null);
        nextStart = null;
    }

    /** Pages whose start is known. */
    int known() {
        return starts.size();
    }

    Cursor of(int pageIndex) {
        return starts.get(pageIndex);
    }

    /** The page just shown ended at {@code end}: where the page after it starts. */
    void shown(Cursor end) {
        nextStart = end;
    }

    /** The index of the page after page {@code shownNumber} (1-based), its start now known. */
    int next(int shownNumber) {
        if (starts.size() == shownNumber) {
            starts.add(nextStart);
        }
        return shownNumber;
    }
}
