package io.keyranger.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.migrate.MigrationLedger.Entry;
import io.keyranger.migrate.MigrationLedger.State;
import io.keyranger.support.SharedEmulator;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The migrations' lease is renewed every ten seconds in a transaction that reads and writes its lock, and every ledger
 * write reads that lock in its own transaction: on the real emulator, a renewal committed between the two answers the
 * ledger write's commit with "too much contention". The write is retried, so an apply does not fail on it.
 */
class MigrationLeaseContentionTest {
    @Test
    void aLedgerWriteThatARenewalOfTheLeaseOvertakesIsWrittenOnTheNextTry() {
        Datastore plain = SharedEmulator.connect(SharedEmulator.freshProject("migration-contention"));
        Key lockKey = plain.newKeyFactory().setNamespace("").setKind(MigrationLedger.KIND).newKey("~lock");
        AtomicInteger renewals = new AtomicInteger();
        Datastore overtaken = renewedBeforeFirstCommit(plain, lockKey, renewals);
        Instant started = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Entry entry = new Entry(1, "0001_first.json", "abc", 1, List.of("migration-1-1-1"), started, null,
                State.RUNNING, null);

        try (MigrationLock lock = MigrationLock.take(plain)) {
            MigrationLedger.write(overtaken, lock, entry);
        }

        assertThat(renewals).as("a renewal committed between the write's read of the lock and its commit").hasValue(1);
        assertThat(MigrationLedger.read(plain)).as("the emulator's own query of the ledger").containsExactly(entry);
    }

    /**
     * {@code datastore}, the first commit of its transactions made only after another transaction has read the lock
     * and written it back (as the lease's renewal does), counted in {@code renewals}.
     */
    private static Datastore renewedBeforeFirstCommit(Datastore datastore, Key lockKey, AtomicInteger renewals) {
        return (Datastore) Proxy.newProxyInstance(Datastore.class.getClassLoader(), new Class<?>[] {Datastore.class},
                (proxy, method, args) -> {
                    Object value = invoked(datastore, method, args);
                    if (!(value instanceof Transaction tx)) {
                        return value;
                    }
                    return Proxy.newProxyInstance(Transaction.class.getClassLoader(), new Class<?>[] {Transaction.class},
                            (p, m, a) -> {
                                if (m.getName().equals("commit") && renewals.get() == 0) {
                                    Transaction renewal = datastore.newTransaction();
                                    Entity held = renewal.get(lockKey);
                                    renewal.put(held);
                                    renewal.commit();
                                    renewals.incrementAndGet();
                                }
                                return invoked(tx, m, a);
                            });
                });
    }

    private static Object invoked(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
