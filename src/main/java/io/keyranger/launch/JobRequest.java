package io.keyranger.launch;

import io.keyranger.KeyRangerException;
import io.keyranger.job.LeaseMode;
import io.keyranger.job.JobSpec;
import io.keyranger.undo.JobUndo;
import java.util.List;
import java.util.Objects;

/**
 * What the user asks to run, as the command line and the app both say it: a new job (over a kind, a GQL query's kind,
 * several kinds or every kind; an import or a restore), the resume or take-over of a stored job or group, or a revert.
 */
public sealed interface JobRequest {
    /**
     * A new job. An import or a restore whose id names a stored one on the same input resumes it (then {@code mode}
     * says what to do when another runner holds it).
     *
     * @param spec     the job (over several kinds: the group's spec, its kind naming them)
     * @param kinds    the kinds named for a job over several kinds, empty for the spec's kind alone
     * @param allKinds whether it runs over every kind of the namespace
     * @param mode     what to do when another runner holds a stored job of its id
     * @param bookkeeping over every kind: KeyRanger's bookkeeping kinds too (an export that asks for them); they are
     *                 left out otherwise
     */
    record NewJob(JobSpec spec, List<String> kinds, boolean allKinds, LeaseMode mode, boolean bookkeeping)
            implements JobRequest {
        public NewJob {
            Objects.requireNonNull(spec, "spec");
            kinds = List.copyOf(kinds);
        }

        /** Whether it runs kind after kind, as a group. */
        public boolean severalKinds() {
            return allKinds || !kinds.isEmpty();
        }

        /** The same job, taking a stored one of its id over as {@code how} says. */
        public NewJob withMode(LeaseMode how) {
            return new NewJob(spec, kinds, allKinds, how, bookkeeping);
        }

        /**
         * The same job over every kind, KeyRanger's bookkeeping kinds included: only an export takes them (a copy of
         * the whole database); no other job maps them.
         */
        public NewJob withBookkeeping() {
            if (!allKinds || !spec.mapper().template().equals("export")) {
                throw new KeyRangerException("--include-bookkeeping goes with an export over --all-kinds: KeyRanger's "
                        + "bookkeeping kinds are exported on request, and never mapped otherwise.");
            }
            return new NewJob(spec, kinds, true, mode, true);
        }
    }

    /**
     * A stored job or group, run on from where it stopped.
     *
     * @param jobId the job's or the group's id
     * @param mode  {@link LeaseMode#RESUME}, or a take-over (once the holder's lease runs out, or at once)
     */
    record Resume(String jobId, LeaseMode mode) implements JobRequest {
        public Resume {
            Objects.requireNonNull(jobId, "jobId");
            Objects.requireNonNull(mode, "mode");
        }
    }

    /**
     * A new job that takes a stored job (or each kind's job of a group) back.
     *
     * @param jobId    the job to revert
     * @param settings the revert job's id and size: one with no id is given a new one here, the one place revert ids
     *                 are made, so that every front end names the revert before it runs
     */
    record Revert(String jobId, JobUndo.RevertSettings settings) implements JobRequest {
        public Revert {
            Objects.requireNonNull(jobId, "jobId");
            Objects.requireNonNull(settings, "settings");
            if (settings.revertId() == null) {
                settings = settings.named(JobUndo.newRevertId(jobId));
            }
        }
    }

    /** A new job over its spec's kind (or query, or file). */
    static NewJob job(JobSpec spec) {
        return new NewJob(spec, List.of(), false, LeaseMode.RESUME, false);
    }

    /** A new job over the named kinds, kind after kind. */
    static NewJob overKinds(JobSpec spec, List<String> kinds) {
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("a job over several kinds names at least one");
        }
        return new NewJob(spec, kinds, false, LeaseMode.RESUME, false);
    }

    /** A new job over every kind of the spec's namespace, kind after kind. */
    static NewJob overAllKinds(JobSpec spec) {
        return new NewJob(spec, List.of(), true, LeaseMode.RESUME, false);
    }

    static Resume resume(String jobId) {
        return new Resume(jobId, LeaseMode.RESUME);
    }

    /** A take-over: at once ({@code now}; the holder stops at its next renewal), or once the holder's lease runs out. */
    static Resume takeOver(String jobId, boolean now) {
        return new Resume(jobId, now ? LeaseMode.TAKE_OVER_NOW : LeaseMode.TAKE_OVER);
    }

    static Revert revert(String jobId, JobUndo.RevertSettings settings) {
        return new Revert(jobId, settings);
    }
}
