package io.keyranger.datastore;

/**
 * What one commit may hold. The legacy emulator allows at most 25 entity groups per transaction (reads count);
 * production Firestore in Datastore mode allows 500 mutations per commit and has no entity-group limit. A commit
 * request may be at most 10 MiB in production; the legacy emulator refuses one over 4 MiB (4,194,304 bytes: measured,
 * it resets the stream of a commit whose entities total more than about 4,194,244 bytes).
 *
 * @param maxEntityGroups entity groups per transaction, 0 for no limit
 * @param maxMutations    mutations per commit
 * @param maxRequestBytes bytes of one commit request
 */
public record ServerLimits(int maxEntityGroups, int maxMutations, int maxRequestBytes) {
    public static final ServerLimits EMULATOR = new ServerLimits(25, 500, 4 << 20);
    public static final ServerLimits PRODUCTION = new ServerLimits(0, 500, 10 << 20);
    /**
     * The Firestore emulator in Datastore mode: no entity-group limit (a transaction over 500 groups commits), 4 MiB
     * requests (it refuses a larger one with "gRPC message exceeds maximum size 4194304"), and production's 500
     * mutations, which it does not enforce but production does.
     */
    public static final ServerLimits FIRESTORE_EMULATOR = new ServerLimits(0, 500, 4 << 20);

    /**
     * The bytes of mutations one commit may write: the request limit less an eighth, for what a request holds besides
     * its entities (the mutations' framing, the transaction) and sizes that are estimates.
     */
    public long commitBytes() {
        return maxRequestBytes - maxRequestBytes / 8;
    }
}
