package io.keyranger.executor.lease;

import io.keyranger.job.LeaseMode;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.Retries;
import io.keyranger.job.JobBusyException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One runner at a time for a job, and fenced commits.
 *
 * <p>A job has a <em>fence</em>: its own bookkeeping entity (the job, or an import's checkpoint) carries an epoch
 * that only grows and the runner that holds it. Taking a job bumps the epoch in a transaction. A job's pages do not
 * read it: they commit through their cells' ledgers ({@link io.keyranger.executor.cells.CellCommitter}), which are exact whoever commits, so for
 * them the lease is a courtesy (one runner at a time, take-over, clear messages). What only the holder may do reads
 * the fence in its own transaction ({@link #check}): recording a job's end, and each line of an import. So a runner
 * that was taken over, however long it was frozen, can never record an end or import a line again, and the pages it
 * commits after waking are still applied once. Correctness never depends on clocks.
 *
 * <p>Liveness is a separate <em>lease</em> entity ({@code _KeyRangerLease}), renewed by the runner while it works.
 * Commits never read it, so renewals never make them abort each other. A plain resume is refused while another runner
 * holds a live lease; a take-over waits for the lease to expire, or takes the job at once when told to.
 */
public final class JobLease {
    public static final String LEASE_KIND = BookkeepingKinds.PREFIX + "Lease";
    /**
     * On a fence entity and on each of its job's cell ledgers: the revert that took the job back. A runner that finds
     * it stops and commits nothing more.
     */
    public static final String REVERTED_BY = "revertedBy";
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(30);
    /** Runner ids of this process that are still working: a lease held by one of ours that ended is stale. */
    public static final Set<String> ACTIVE = ConcurrentHashMap.newKeySet();
    /** Taking a job retries like everything else, with a minute's patience for a lost server. */
    private static final Retries.Policy TAKE_RETRIES = new Retries.Simple(20, 20, 1_000, 60_000);
    /**
     * Longest a take's transaction waits for what it creates ({@link Creation}) before it gives its transaction up
     * and begins another once that is ready: well within the server's 60 s before an idle transaction expires.
     */
    static final Duration CREATION_PATIENCE = Duration.ofSeconds(20);

    private final Datastore datastore;
    private final Key fenceKey;
    private final Key leaseKey;
    private final String label;
    private final Duration duration;
    private final Runner runner;
    private volatile long epoch;
    private volatile boolean created;
    private Duration creationPatience = CREATION_PATIENCE;

    /**
     * What a take writes when the fence entity does not exist yet: the fence, and the entities created with it. It is
     * asked for inside the take's transaction, after the fence was read, so that it may still be in the making while
     * the transaction begins; it must give the same answer each time it is asked.
     */
    public record Creation(Entity.Builder fence, List<Entity> with) {
    }

    private JobLease(Datastore datastore, Key fenceKey, String leaseName, String label, Duration duration) {
        this.datastore = datastore;
        this.fenceKey = fenceKey;
        this.leaseKey = datastore.newKeyFactory().setNamespace("").setKind(LEASE_KIND).newKey(leaseName);
        this.label = label;
        this.duration = duration;
        this.runner = Runner.self();
    }

    /** A lease on {@code fenceKey}, not taken yet. {@code label} names the job in messages ("Job X"). */
    public static JobLease of(Datastore datastore, Key fenceKey, String leaseName, String label, Duration duration) {
        if (duration.toMillis() < 500) {
            throw new KeyRangerException("A lease lasts at least 0.5 s (got " + duration.toMillis() + " ms).");
        }
        return new JobLease(datastore, fenceKey, leaseName, label, duration);
    }

    public Runner runner() {
        return runner;
    }

    public long epoch() {
        return epoch;
    }

    public Key fenceKey() {
        return fenceKey;
    }

    public Duration duration() {
        return duration;
    }

    /**
     * Takes the job in a transaction: checks the mode against the current holder, bumps the epoch, stamps this runner
     * on the fence entity (built by {@code update} from the stored one, null when there is none) and writes the lease.
     *
     * @param proceed  looks at the stored fence entity in the transaction and says whether to take the job at all
     *                 (false: nothing is written and this returns false); it may throw to refuse with a message
     * @param creation what to write when there is no fence entity (null: nothing), asked for in the transaction
     * @param waiting  told, now and then, what a take-over is waiting for
     * @return whether the job was taken
     */
    public boolean take(LeaseMode mode, Predicate<Entity> proceed, UnaryOperator<Entity.Builder> update,
                 Supplier<Creation> creation, Consumer<String> waiting) {
        while (true) {
            Attempt outcome = Retries.call(TAKE_RETRIES, Retries.Observer.NONE,
                    () -> tryTake(mode, proceed, update, creation));
            if (outcome.again()) {
                continue;
            }
            if (outcome.waitUntil() == null) {
                return outcome.taken();
            }
            waiting.accept(outcome.message());
            sleepUntil(outcome.waitUntil());
        }
    }

    /** Tests: a take's patience with what it creates, shorter than the server's. */
    void creationPatience(Duration patience) {
        this.creationPatience = patience;
    }

    /**
     * Whether the last take created the fence entity (with {@link Creation#with}): false when it found it, and when an
     * earlier attempt whose answer was lost took it (what that attempt wrote is then not known here).
     */
    public boolean createdIt() {
        return created;
    }

    /**
     * One try: taken, not taken (proceed said no), wait until the holder's lease may have run out, or try again at
     * once (what it creates took too long to make for this transaction).
     */
    private record Attempt(boolean taken, Instant waitUntil, String message, boolean again) {
        Attempt(boolean taken, Instant waitUntil, String message) {
            this(taken, waitUntil, message, false);
        }
    }

    private Attempt tryTake(LeaseMode mode, Predicate<Entity> proceed,
                            UnaryOperator<Entity.Builder> update, Supplier<Creation> creation) {
        created = false;
        Transaction tx = datastore.newTransaction();
        long begun = System.nanoTime();
        try {
            List<Entity> found = tx.fetch(fenceKey, leaseKey);
            Entity fence = found.get(0);
            Entity lease = found.get(1);
            if (fence != null && runner.id().equals(stringOr(fence, "runnerId"))) {
                epoch = fence.getLong("epoch"); // an earlier attempt whose answer was lost took it
                ACTIVE.add(runner.id());
                return new Attempt(true, null, null);
            }
            if (mode == LeaseMode.CREATE && fence != null) {
                Holding holding = Holding.of(fence, lease, Instant.now(), ACTIVE);
                throw new KeyRangerException(label + " exists already" + (holding.live()
                        ? " and is being run by " + holding.runner().describe() : "") + ". Resume it with --resume "
                        + fence.getKey().getName() + " or choose another id.");
            }
            if (!proceed.test(fence)) {
                return new Attempt(false, null, null);
            }
            Holding holding = fence == null ? null : Holding.of(fence, lease, Instant.now(), ACTIVE);
            if (holding != null && holding.live() && mode != LeaseMode.TAKE_OVER_NOW) {
                if (mode == LeaseMode.RESUME) {
                    throw new JobBusyException(label, holding.runner().describe(), holding.expiresAt(), DEFAULT_DURATION);
                }
                return new Attempt(false, holding.expiresAt(), "Waiting for the lease of " + holding.runner().describe()
                        + " to expire (it runs out at " + holding.expiresAt().truncatedTo(
                        ChronoUnit.SECONDS) + " unless that runner renews it)…");
            }
            long next = (fence == null || !fence.contains("epoch") ? 0 : fence.getLong("epoch")) + 1;
            Creation made = fence == null && creation != null ? creation.get() : null;
            if (made != null && Duration.ofNanos(System.nanoTime() - begun).compareTo(creationPatience) > 0) {
                return new Attempt(false, null, null, true); // it is ready now: a fresh transaction commits it
            }
            Entity.Builder builder = fence == null ? (made == null ? null : made.fence())
                    : update.apply(Entity.newBuilder(fence));
            tx.put(stamp(builder, next).build(), leaseEntity(next, Instant.now().plus(duration), false));
            if (made != null && !made.with().isEmpty()) {
                tx.put(made.with().toArray(new Entity[0]));
            }
            tx.commit();
            created = fence == null;
            epoch = next;
            ACTIVE.add(runner.id());
            return new Attempt(true, null, null);
        } finally {
            if (tx.isActive()) {
                Retries.rollbackQuietly(tx);
            }
        }
    }

    /** Throws {@link JobFencedException} unless {@code fence}, as read in the caller's transaction, is still ours. */
    public void check(Entity fence) {
        if (fence == null || !fence.contains("epoch") || fence.getLong("epoch") != epoch
                || !runner.id().equals(stringOr(fence, "runnerId"))) {
            throw fenced(fence);
        }
    }

    /** The exception for a runner that was taken over, naming the taker as stored now. */
    public JobFencedException fencedNow() {
        Entity fence;
        try {
            fence = datastore.get(fenceKey);
        } catch (RuntimeException e) {
            return new JobFencedException(label + " was taken over by another runner: this runner stopped, and "
                    + "nothing it did is applied twice.");
        }
        return fenced(fence);
    }

    private JobFencedException fenced(Entity fence) {
        if (fence == null) {
            return new JobFencedException(label + " no longer exists: this runner stopped.");
        }
        if (fence.contains(REVERTED_BY)) {
            return JobFencedException.reverted(label, fence.getString(REVERTED_BY));
        }
        Runner taker = Runner.of(fence);
        return new JobFencedException(label + " was taken over by " + taker.describeTakeOver() + ": this runner "
                + "stopped, and nothing it did is applied twice. The job goes on there.");
    }

    /**
     * Renews the lease. It reads and writes only the lease entity, which no commit reads, so renewals never make
     * commits abort; a take-over rewrites the lease, so a renewal that finds another runner's throws
     * {@link JobFencedException}.
     */
    public void renew() {
        Transaction tx = datastore.newTransaction();
        try {
            Entity lease = tx.get(leaseKey);
            if (lease == null || lease.getLong("epoch") != epoch || !runner.id().equals(lease.getString("runnerId"))) {
                tx.rollback();
                throw fencedNow();
            }
            tx.put(leaseEntity(epoch, Instant.now().plus(duration), false));
            tx.commit();
        } finally {
            if (tx.isActive()) {
                Retries.rollbackQuietly(tx);
            }
        }
    }

    /** The lease entity, released: written in the same transaction as the job's last status. */
    public Entity released() {
        return leaseEntity(epoch, Instant.now(), true);
    }

    /** This runner has ended in this process: a lease it could not release is stale to later runs here. */
    public void ended() {
        ACTIVE.remove(runner.id());
    }

    /** Sets this runner and epoch on a fence entity. */
    public Entity.Builder stamp(Entity.Builder fence, long newEpoch) {
        return fence.set("epoch", newEpoch).set("runnerId", runner.id()).set("runnerHost", runner.host())
                .set("runnerPid", runner.pid()).set("runnerProcessStart", runner.processStart())
                .set("runnerSince", timestamp(runner.since()));
    }

    private Entity leaseEntity(long leaseEpoch, Instant expiresAt, boolean released) {
        return Entity.newBuilder(leaseKey).set("epoch", leaseEpoch).set("runnerId", runner.id())
                .set("expiresAt", timestamp(expiresAt)).set("renewedAt", timestamp(Instant.now()))
                .set("released", released).build();
    }

    private static String stringOr(Entity e, String name) {
        return e.contains(name) ? e.getString(name) : null;
    }

    private static Timestamp timestamp(Instant instant) {
        return Timestamp.ofTimeSecondsAndNanos(instant.getEpochSecond(), instant.getNano());
    }

    private static void sleepUntil(Instant instant) {
        long millis = Math.max(200, Math.min(5_000, Duration.between(Instant.now(), instant).toMillis() + 100));
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for a lease");
        }
    }
}
