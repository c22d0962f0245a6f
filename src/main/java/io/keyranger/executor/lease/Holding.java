package io.keyranger.executor.lease;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A job's holder as stored, for listings and messages.
 *
 * @param runner    who took it last
 * @param epoch     the fence's epoch
 * @param live      whether that runner's lease is live
 * @param expiresAt when its lease runs out (or ran out)
 */
public record Holding(Runner runner, long epoch, boolean live, Instant expiresAt) {
    /** Who holds a job, read outside any transaction; empty when it was never taken. */
    public static Optional<Holding> read(Datastore datastore, Key fenceKey, String leaseName) {
        Key leaseKey = datastore.newKeyFactory().setNamespace("").setKind(JobLease.LEASE_KIND).newKey(leaseName);
        List<Entity> found = datastore.fetch(fenceKey, leaseKey);
        if (found.get(0) == null || !found.get(0).contains("runnerId")) {
            return Optional.empty();
        }
        return Optional.of(of(found.get(0), found.get(1), Instant.now(), JobLease.ACTIVE));
    }

    /**
     * The holder of a fence and whether its lease is live: not released, not expired, and its runner not gone
     * ({@code active}: the runs of this process still working).
     */
    public static Holding of(Entity fence, Entity lease, Instant now, Set<String> active) {
        Runner holder = Runner.of(fence);
        long fenceEpoch = fence.contains("epoch") ? fence.getLong("epoch") : 0;
        if (lease == null || !fence.contains("runnerId")) {
            return new Holding(holder, fenceEpoch, false, now);
        }
        Instant expires = lease.getTimestamp("expiresAt").toDate().toInstant();
        boolean live = !lease.getBoolean("released") && lease.getLong("epoch") == fenceEpoch
                && holder.id().equals(lease.getString("runnerId")) && expires.isAfter(now) && !holder.isGone(active);
        return new Holding(holder, fenceEpoch, live, expires);
    }
}
