package io.keyranger.datastore;

import io.keyranger.KeyRangerException;

/** Names of the kinds KeyRanger writes for its own bookkeeping (jobs, checkpoints, counters). */
public final class BookkeepingKinds {
    /** Every bookkeeping kind starts with this prefix, so the browser can hide them. */
    public static final String PREFIX = "_KeyRanger";
    /** A job: its id, namespace, kind and mapper. */
    public static final String JOB = PREFIX + "Job";

    private BookkeepingKinds() {
    }

    /**
     * Whether a kind is KeyRanger's own (jobs, ledgers, counters, undo records, ...), not user data: what every listing
     * of an export or a database sets apart.
     */
    public static boolean isBookkeeping(String kind) {
        return kind.startsWith(PREFIX);
    }

    /** Reserved {@code __*__} kinds and KeyRanger's own kinds are hidden from users by default. */
    public static boolean isHidden(String kind) {
        return kind.startsWith("__") || isBookkeeping(kind);
    }

    /**
     * Refuses {@code kind} as a job's kind (run, restore, diff, an import) when it is a reserved {@code __*__} kind or
     * KeyRanger's own: a restore of {@code _KeyRangerJob} would rewrite the job store under the jobs it holds. Only an
     * export asked to take the bookkeeping kinds too reads them (as a group's kinds, not through this check).
     */
    public static void requireUserKind(String kind) {
        if (isHidden(kind)) {
            throw new KeyRangerException("'" + kind + "' is " + (kind.startsWith("__") ? "a kind Datastore reserves"
                    : "KeyRanger's own bookkeeping") + " and is never mapped: leave it out of --kind.");
        }
    }
}
