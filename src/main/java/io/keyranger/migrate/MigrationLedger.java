package io.keyranger.migrate;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Transaction;
import com.google.cloud.datastore.Value;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.Retries;
import io.keyranger.job.RetryPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a database records of its migrations: one entity a migration of kind {@code _KeyRangerMigration} in the
 * default namespace, named by its number, with its file's name and checksum, the ids of its steps' jobs, when it
 * started and ended, and its state. The lock that lets one {@code up} or {@code down} at a time write it lives in
 * the same kind ({@link MigrationLock}).
 */
public final class MigrationLedger {
    /** The kind of the ledger and its lock. */
    public static final String KIND = BookkeepingKinds.PREFIX + "Migration";

    private MigrationLedger() {
    }

    /** Where a migration stands in a database. */
    public enum State {
        /** Its steps are being applied, or were when the runner stopped: {@code up} resumes them. */
        RUNNING,
        /** Every step's job is done. */
        APPLIED,
        /** A step's job failed or was cancelled: {@code up} resumes it. */
        FAILED,
        /** Its steps are being taken back, or were when the runner stopped: {@code down} resumes. */
        REVERTING,
        /** Taken back: pending again, applied anew (with new jobs) by the next {@code up}. */
        REVERTED
    }

    /**
     * A migration as the database records it.
     *
     * @param number   its number
     * @param name     its file's name when it was applied
     * @param checksum its file's checksum when it was applied
     * @param attempt  how many times it was applied (its jobs' ids say which time)
     * @param jobs     its steps' job ids, in order
     * @param started  when its last {@code up} began
     * @param ended    when its last {@code up} or {@code down} ended, or null
     * @param state    where it stands
     * @param message  why it failed (or what a revert left alone), or null
     */
    public record Entry(int number, String name, String checksum, int attempt, List<String> jobs, Instant started,
                        Instant ended, State state, String message) {
        public Entry {
            jobs = List.copyOf(jobs);
        }

        Entry with(State state, Instant ended, String message) {
            return new Entry(number, name, checksum, attempt, jobs, started, ended, state, message);
        }
    }

    static Key key(Datastore datastore, int number) {
        return datastore.newKeyFactory().setNamespace("").setKind(KIND).newKey(String.format("%09d", number));
    }

    /** Every migration the database records, by number. */
    public static List<Entry> read(Datastore datastore) {
        List<Entry> entries = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setNamespace("").setKind(KIND).build()).forEachRemaining(e -> {
            if (e.contains("number")) {
                entries.add(of(e));
            }
        });
        entries.sort((a, b) -> Integer.compare(a.number(), b.number()));
        return entries;
    }

    /**
     * Writes {@code entry}, in a transaction that first checks {@code lock} is still this runner's; retried on
     * transient errors, such as contention with the lease's own renewal, which reads and writes the same lock.
     */
    static void write(Datastore datastore, MigrationLock lock, Entry entry) {
        RetryPolicy.DEFAULT.call(() -> {
            Transaction tx = datastore.newTransaction();
            try {
                lock.requireHeld(tx);
                tx.put(toEntity(datastore, entry));
                tx.commit();
                return null;
            } finally {
                if (tx.isActive()) {
                    Retries.rollbackQuietly(tx); // a transaction the server dropped must not hide the error
                }
            }
        });
    }

    private static Entity toEntity(Datastore datastore, Entry entry) {
        List<Value<?>> jobs = entry.jobs().stream().<Value<?>>map(StringValue::of).toList();
        Entity.Builder b = Entity.newBuilder(key(datastore, entry.number())).set("number", entry.number())
                .set("name", entry.name()).set("checksum", entry.checksum()).set("attempt", entry.attempt())
                .set("jobs", ListValue.of(jobs)).set("state", entry.state().name())
                .set("started", timestamp(entry.started()));
        if (entry.ended() != null) {
            b.set("ended", timestamp(entry.ended()));
        } else {
            b.setNull("ended");
        }
        if (entry.message() != null) {
            b.set("message", StringValue.newBuilder(entry.message()).setExcludeFromIndexes(true).build());
        } else {
            b.setNull("message");
        }
        return b.build();
    }

    private static Entry of(Entity e) {
        List<String> jobs = new ArrayList<>();
        if (e.contains("jobs")) {
            e.<Value<?>>getList("jobs").forEach(v -> jobs.add((String) v.get()));
        }
        return new Entry((int) e.getLong("number"), e.getString("name"), e.getString("checksum"),
                (int) e.getLong("attempt"), jobs, instant(e.getTimestamp("started")),
                e.isNull("ended") ? null : instant(e.getTimestamp("ended")), State.valueOf(e.getString("state")),
                e.isNull("message") ? null : e.getString("message"));
    }

    static Timestamp timestamp(Instant at) {
        return Timestamp.ofTimeSecondsAndNanos(at.getEpochSecond(), at.getNano());
    }

    static Instant instant(Timestamp at) {
        return Instant.ofEpochSecond(at.getSeconds(), at.getNanos());
    }
}
