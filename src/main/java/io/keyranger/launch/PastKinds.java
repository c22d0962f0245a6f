package io.keyranger.launch;

import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.Session;
import io.keyranger.executor.store.JobStore;
import io.keyranger.group.JobKinds;
import io.keyranger.job.JobInput;
import io.keyranger.job.JobSpec;

/**
 * The kind a restore or comparison of the database's past reads, checked before anything is read or written, as a
 * restore from an export checks that the export holds it: a bookkeeping or reserved kind is refused, and so is a kind
 * that held no entity at the moment (a typo would otherwise run a job that does nothing and "succeed"), naming the
 * nearest kind there was then.
 */
public final class PastKinds {
    private PastKinds() {
    }

    /**
     * Checks the kind of {@code spec} when it restores from the past ({@link JobInput.Past}); other jobs are
     * left to their own checks. A kind empty at its moment is still taken by a restore that deletes what was added
     * ({@code --remove-added}) when the kind holds entities at the later moment it reads (--until, or live). A job of
     * its id stored already is not checked: it is resumed, or done.
     */
    public static void requireHeld(Session live, JobSpec spec) {
        if (!(JobInput.of(spec) instanceof JobInput.Past past)) {
            return;
        }
        if (spec.jobId() != null && new JobStore(live.live().datastore()).findJob(spec.jobId()) != null) {
            return; // run again under its id: it resumes (or says it is done), its moments checked as a resume's are
        }
        PointInTime until = past.until();
        Session later = !past.removeAdded() ? null : until == null ? live.live() : live.live().asOf(until);
        requireHeld(live, past.asOf(), later, spec.namespace(), spec.kind());
    }

    /**
     * Refuses {@code kind} in {@code namespace} when it is not a user's kind, or held no entity as of {@code at} nor
     * in {@code later} (a session whose entities also count, or null).
     */
    public static void requireHeld(Session live, PointInTime at, Session later, String namespace, String kind) {
        BookkeepingKinds.requireUserKind(kind);
        DatastoreGateway then = new DatastoreGateway(live.live().asOf(at).datastore(), live.spec().server());
        if (then.kindExists(namespace, kind)
                || later != null && new DatastoreGateway(later.datastore(), live.spec().server())
                .kindExists(namespace, kind)) {
            return;
        }
        throw JobKinds.notFound(kind, namespace, then.kinds(namespace, false), " as of " + at.time());
    }
}
