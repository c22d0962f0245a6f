package io.keyranger.job;

import java.time.Instant;

/**
 * The moments a running job reads the past at, watched against the server's version window as the job goes: a job
 * that outlives its moment's window (an emulator that keeps minutes, production's hour) stops with that reason
 * rather than failing range after range ({@code JobReadTime.watch}).
 */
@FunctionalInterface
public interface MomentWatch {
    /** A job that reads no past: nothing to watch. */
    MomentWatch NONE = now -> null;

    /** Null while every moment the job reads is in the server's window at {@code now}; else why the job stops. */
    String left(Instant now);

    /**
     * Why a job stops whose moment left the window ({@code left}: "the moment T has left the server's version window:
     * ..."), and what of its work stays: every commit, a restore's revertible; a resume reads the same moment.
     */
    static String stopped(String jobId, boolean restore, String left) {
        return left + ". Job " + jobId + " stopped there; every commit it made is kept" + (restore ? " (revert them with "
                + "'keyranger revert " + jobId + "')" : "") + ". A resume reads the same moment again, so it runs only "
                + "where the server still keeps it whole; else " + (restore ? "restore again from a moment inside the "
                + "window." : "start the job again: it reads as of its new start "
                + "(with --no-snapshot, live data page by page).");
    }
}
