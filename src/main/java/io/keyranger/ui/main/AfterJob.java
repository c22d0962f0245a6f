package io.keyranger.ui.main;

import io.keyranger.ui.kinds.KindItem;
import io.keyranger.ui.run.FinishedJob;
import java.util.List;

/**
 * What the browser reads again after a job ended, so that it never shows the data as it was before the job: the
 * selected kind's page and properties when the job wrote to it, and the counts of the listed kinds it wrote to
 * (unless it changed entities in place only, {@link FinishedJob#keepsCounts}: on the legacy emulator a count is a
 * scan). A job that only reads (a count, an export) changes nothing: nothing is read again, as nothing is while the
 * browser shows a past moment, which no job changes.
 *
 * @param selectedKind whether the selected kind's page and properties are read again (and an Undo the job made
 *                     impossible taken away)
 * @param recount      the listed kinds counted again
 */
record AfterJob(boolean selectedKind, List<KindItem> recount) {
    private static final AfterJob NOTHING = new AfterJob(false, List.of());

    /**
     * After {@code job}, with {@code listed} kinds and {@code selected} (or null) on show; {@code live}: whether the
     * browser shows live data.
     */
    static AfterJob of(FinishedJob job, boolean live, List<KindItem> listed, KindItem selected) {
        if (!job.writes() || !live) {
            return NOTHING;
        }
        List<KindItem> changed = listed.stream().filter(item -> job.changed(item.name())).toList();
        // an increment leaves counts alone: no scan of the kind
        return new AfterJob(selected != null && job.changed(selected.name()),
                job.keepsCounts() ? List.of() : changed);
    }
}
