package io.keyranger.datastore;

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
}
