package io.keyranger.ui.run;

import io.keyranger.job.JobResult;
import java.util.List;

/**
 * A job run on the Run tab that ended, and what it may have changed: what shows the data reads again only what a job
 * wrote (a count or an export changes nothing).
 *
 * @param result how it ended
 * @param writes whether its mapper writes (its template's {@code writes()})
 * @param kinds  the kinds it wrote to, or null when the tab does not know them (a stored job it does not list, a
 *               copy to another namespace)
 * @param keepsCounts whether it left every kind's count as it was ({@link io.keyranger.mapper.Mappers#keepsCounts}):
 *               it changed entities in place only
 */
public record FinishedJob(JobResult result, boolean writes, List<String> kinds, boolean keepsCounts) {
    public FinishedJob {
        kinds = kinds == null ? null : List.copyOf(kinds);
    }

    /** Whether the job may have changed entities of {@code kind}. */
    public boolean changed(String kind) {
        return writes && (kinds == null || kinds.contains(kind));
    }
}
