package io.keyranger.datastore;

/**
 * What one commit may hold. The legacy emulator allows at most 25 entity groups per transaction (reads count);
 * production Firestore in Datastore mode allows 500 mutations per commit and has no entity-group limit.
 *
 * @param maxEntityGroups entity groups per transaction, 0 for no limit
 * @param maxMutations    mutations per commit
 */
public record ServerLimits(int maxEntityGroups, int maxMutations) {
    public static final ServerLimits EMULATOR = new ServerLimits(25, 500);
    public static final ServerLimits PRODUCTION = new ServerLimits(0, 500);

}
