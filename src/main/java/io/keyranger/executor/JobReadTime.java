package io.keyranger.executor;

import io.keyranger.KeyRangerException;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobInput;
import io.keyranger.job.JobSpec;
import io.keyranger.job.MomentWatch;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.mapper.Mappers;
import java.time.Instant;
import java.util.List;

/**
 * The one moment a job that only reads (an export, a count) reads every page at, on a server that keeps versions: the
 * time {@code --as-of} gave, or else the job's start. It is fixed in the job's stored spec ({@code readTime}), so that
 * a resumed run, local or on Beam, reads the same snapshot; a run whose moment the server no longer keeps is refused
 * before anything is read ({@link #requireKept}, which checks a restore's moments too).
 */
public final class JobReadTime {
    private JobReadTime() {
    }

    /**
     * What a run of {@code spec} watches as it goes ({@link MomentWatch}): its moments against {@code session}'s
     * window as read {@code now}, moved on with the clock (its width stays; the server's window is read once, as
     * production's needs a request to the Admin API). {@link MomentWatch#NONE} for a job that restores no past. A copy
     * from another database watches its moment against that database's window.
     */
    public static MomentWatch watch(Session session, JobSpec spec, Instant now) {
        JobInput input = JobInput.of(spec);
        if (input instanceof JobInput.Database from) {
            // another database's moment is its own server's to keep
            return from.asOf() == null ? MomentWatch.NONE : watch(Session.shared(from.source()), spec,
                    List.of(from.asOf()), true, now);
        }
        return watch(session, spec, input.watchedMoments(), input.restoresThePast(), now);
    }

    private static MomentWatch watch(Session session, JobSpec spec, List<PointInTime> moments, boolean restore,
                                     Instant now) {
        if (moments.isEmpty() || !session.spec().server().readsPast()) {
            return MomentWatch.NONE;
        }
        ReadWindow window = ReadWindow.of(session, now);
        return at -> {
            for (PointInTime moment : moments) {
                String left = window.left(moment, now, at);
                if (left != null) {
                    return MomentWatch.stopped(spec.jobId(), restore, left);
                }
            }
            return null;
        };
    }

    /**
     * A new job's spec as it is stored: with {@code now} as its read time when it only reads, gives none, and
     * {@code session}'s server keeps versions; otherwise as it is. A read time its spec gives (written by hand, or
     * by {@code --as-of}) is refused here, before anything is read, when the server does not keep it
     * ({@link #requireKept}): the one check of a new job's read time, on every runner.
     */
    public static JobSpec stamped(Session session, JobSpec spec, Instant now) {
        if (spec.mapper().readTime() != null) {
            requireKept(session, spec, now);
            return spec;
        }
        if (spec.mapper().readsLive() || !Mappers.onlyReads(spec.mapper()) || !session.spec().server().readsPast()) {
            return spec;
        }
        return spec.withMapper(spec.mapper().withReadTime(PointInTime.at(now).time()));
    }

    /**
     * {@code spec} as a runner that creates or takes it over runs it (Beam's launcher): a stored job of its id keeps
     * its read time (the spec gives none: the same mapper file), and unless it is done its moments must still be
     * kept; a new one is {@link #stamped}, a new restore's moments checked.
     */
    public static JobSpec settled(Session session, RetryPolicy retries, JobSpec spec, Instant now) {
        JobStore.StoredJob stored = retries.call(() -> new JobStore(session.datastore()).findJob(spec.jobId()));
        if (stored == null) {
            if (spec.mapper().readTime() == null) {
                requireKept(session, spec, now); // a restore's moments; a read time is checked as it is stamped
            }
            return stamped(session, spec, now);
        }
        Instant kept = stored.spec().mapper().readTime();
        JobSpec same = kept == null || spec.mapper().readTime() != null ? spec
                : spec.withMapper(spec.mapper().withReadTime(kept));
        if (stored.status() != JobStatus.DONE) {
            requireKept(session, stored.spec(), now);
        }
        return same;
    }

    /**
     * Refuses to run job {@code spec} when the server does not keep a moment it reads the past at, before anything is
     * read: an export's or a count's snapshot ({@code readTime}), or a restore's {@code --as-of} and {@code --until};
     * older than an hour without point-in-time recovery, or not a whole minute when older than an hour, or on a
     * server that keeps no past. Any other job passes. The one window check of a stored job, on every runner.
     */
    public static void requireKept(Session session, JobSpec spec, Instant now) {
        JobInput input = JobInput.of(spec);
        List<PointInTime> moments = input.moments();
        if (moments.isEmpty()) {
            return;
        }
        Instant time = spec.mapper().readTime();
        boolean restore = input.restoresThePast();
        String no = restore ? "Job " + spec.jobId() + " restores the database as of " + moments.get(0).describe()
                + ", " : "Job " + spec.jobId() + " reads the database as it was at " + time + " (one snapshot for all "
                + "its pages), ";
        String after = restore ? " Nothing more was written; what the job restored so far can be reverted with "
                + "'keyranger revert " + spec.jobId() + "'." : " Nothing was read. Start the job again: it reads as "
                + "of its new start (with --no-snapshot, live data page by page).";
        if (!session.spec().server().readsPast()) {
            throw new KeyRangerException(no + "and this server keeps no past versions: run it on the database it "
                    + "was started on. " + ServerType.NO_PAST);
        }
        ReadWindow window = ReadWindow.of(session, now);
        for (PointInTime moment : moments) {
            PointInTime checked;
            try {
                checked = window.check(moment, now, note -> { });
            } catch (KeyRangerException e) {
                throw new KeyRangerException(no + (moment.time().isAfter(now) ? "which is in the future"
                        : "which the database no longer keeps") + ": it can be read as of any moment from "
                        + window.earliest() + " to now (" + window.source() + ")." + after);
            }
            if (!checked.time().equals(moment.time())) {
                throw new KeyRangerException(no + "which is over an hour ago and not a whole minute: versions that "
                        + "old are kept only at whole minutes, so it would be read as of " + checked.time()
                        + ", another moment." + after);
            }
        }
    }
}
