package io.keyranger.migrate;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Retries;
import io.keyranger.executor.lease.Runner;
import io.keyranger.job.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The lease that lets one runner at a time apply or take back a database's migrations: an entity of the ledger's kind
 * holding who holds it and until when, taken and renewed in transactions. Another runner's live lease refuses
 * ({@link Busy}, naming it); a lease that ran out, or whose runner is known to be gone (a killed process of this
 * host), is taken over. Every ledger write checks in
 * its transaction that the lease is still this runner's, so a runner that lost it writes nothing more (its jobs are
 * fenced by their own leases).
 */
public final class MigrationLock implements AutoCloseable {
    /** How long a lease lasts unless renewed; it is renewed at a third of that. */
    static final Duration LEASE = Duration.ofSeconds(30);
    private static final String NAME = "~lock";

    /** The ids of the leases this process holds now: another's lease of this process is not gone. */
    private static final Set<String> ACTIVE = ConcurrentHashMap.newKeySet();

    private final Datastore datastore;
    private final Runner holder;
    private final ScheduledExecutorService renewer;

    /** Another runner holds the lease: nothing was written. */
    public static final class Busy extends KeyRangerException {
        Busy(String message) {
            super(message);
        }
    }

    private MigrationLock(Datastore datastore, Runner holder) {
        this.datastore = datastore;
        this.holder = holder;
        this.renewer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "keyranger-migration-lease");
            t.setDaemon(true);
            return t;
        });
    }

    /** Takes the lease of {@code datastore}'s migrations and keeps renewing it until closed; {@link Busy} if held. */
    public static MigrationLock take(Datastore datastore) {
        MigrationLock lock = new MigrationLock(datastore, Runner.self());
        ACTIVE.add(lock.holder.id());
        try {
            RetryPolicy.DEFAULT.call(() -> {
                lock.renew(true);
                return null;
            });
        } catch (RuntimeException e) {
            ACTIVE.remove(lock.holder.id());
            lock.renewer.shutdownNow();
            throw e;
        }
        long every = LEASE.toMillis() / 3;
        lock.renewer.scheduleWithFixedDelay(() -> {
            try {
                lock.renew(false);
            } catch (RuntimeException e) {
                // the next ledger write finds out whether the lease is still held
            }
        }, every, every, TimeUnit.MILLISECONDS);
        return lock;
    }

    private Key key() {
        return datastore.newKeyFactory().setNamespace("").setKind(MigrationLedger.KIND).newKey(NAME);
    }

    private void renew(boolean first) {
        Transaction tx = datastore.newTransaction();
        try {
            Entity held = tx.get(key());
            Instant now = Instant.now();
            boolean mine = held != null && holds(held);
            if (held != null && !mine && MigrationLedger.instant(held.getTimestamp("until")).isAfter(now)
                    && !Runner.of(held).isGone(ACTIVE)) {
                if (!first) {
                    return; // lost: the next ledger write refuses
                }
                throw new Busy("The migrations of this database are being applied or rolled back by "
                        + Runner.of(held).describe() + " (its lease runs to "
                        + MigrationLedger.instant(held.getTimestamp("until")) + "). Wait for it to end, or run "
                        + "again once its lease has run out if it was stopped; nothing was written.");
            }
            if (!first && !mine) {
                return;
            }
            Instant since = mine ? MigrationLedger.instant(held.getTimestamp("runnerSince")) : now;
            tx.put(Entity.newBuilder(key()).set("runnerId", holder.id()).set("runnerHost", holder.host())
                    .set("runnerPid", holder.pid()).set("runnerProcessStart", holder.processStart())
                    .set("runnerSince", MigrationLedger.timestamp(since))
                    .set("until", MigrationLedger.timestamp(now.plus(LEASE))).build());
            tx.commit();
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
        }
    }

    private boolean holds(Entity held) {
        return held.contains("runnerId") && holder.id().equals(held.getString("runnerId"));
    }

    /** Refuses when the lease is no longer this runner's: checked before each job it starts. */
    void requireHeld() {
        RetryPolicy.DEFAULT.call(() -> {
            Transaction tx = datastore.newTransaction();
            try {
                requireHeld(tx);
                return null;
            } finally {
                Retries.rollbackQuietly(tx);
            }
        });
    }

    /** Refuses, in {@code tx}, when the lease is no longer this runner's. */
    void requireHeld(Transaction tx) {
        Entity held = tx.get(key());
        if (held == null || !holds(held)) {
            throw new KeyRangerException("This runner lost the lease of the migrations to "
                    + (held == null ? "nobody" : Runner.of(held).describe()) + " (it stopped renewing it for over "
                    + LEASE.toSeconds() + " s): it stops; run the command again to go on.");
        }
    }

    /** Stops renewing and gives the lease back. */
    @Override
    public void close() {
        renewer.shutdownNow();
        ACTIVE.remove(holder.id());
        try {
            RetryPolicy.DEFAULT.call(() -> { // a renewal still in flight contends for the same lock
                Transaction tx = datastore.newTransaction();
                try {
                    Entity held = tx.get(key());
                    if (held != null && holds(held)) {
                        tx.delete(key());
                        tx.commit();
                    }
                    return null;
                } finally {
                    if (tx.isActive()) {
                        Retries.rollbackQuietly(tx);
                    }
                }
            });
        } catch (RuntimeException e) {
            // it runs out on its own
        }
    }
}
