package io.keyranger.testhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.support.SharedEmulator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The hold between transactions that the kill and freeze tests use on the Firestore emulator: once closed, it says
 * "held" only after the last open transaction has ended, holds every transaction begun after that (the lease's
 * renewals excepted), and lets them go on release. On the real emulator.
 */
class TransactionGateTest {
    @Test
    void heldOnlyOnceNoTransactionIsOpenAndNoneBeginsUntilReleased() throws Exception {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("gate"));
        CountDownLatch held = new CountDownLatch(1);
        TransactionGate gate = new TransactionGate(held::countDown);
        Datastore gated = gate.wrap(datastore);
        Key key = datastore.newKeyFactory().setKind("Doc").newKey("a");

        Transaction open = gated.newTransaction();
        open.get(key);
        gate.close();
        AtomicBoolean begun = new AtomicBoolean();
        CompletableFuture<Void> next = CompletableFuture.runAsync(() -> {
            Transaction tx = gated.newTransaction();
            begun.set(true);
            tx.put(Entity.newBuilder(key).set("n", 2).build());
            tx.commit();
        });
        assertThat(held.await(300, TimeUnit.MILLISECONDS)).as("held while a transaction is open").isFalse();

        open.put(Entity.newBuilder(key).set("n", 1).build());
        open.commit();
        assertThat(held.await(10, TimeUnit.SECONDS)).as("held once the last open one committed").isTrue();
        Thread.sleep(200);
        assertThat(begun).as("no transaction begins at a closed gate").isFalse();
        assertThat(datastore.get(key).getLong("n")).isEqualTo(1);

        CompletableFuture<Long> renewal = CompletableFuture.supplyAsync(() -> {
            Transaction tx = gated.newTransaction();
            long n = tx.get(key).getLong("n");
            tx.rollback();
            return n;
        }, r -> new Thread(r, "keyranger-lease-test").start());
        assertThat(renewal.get(10, TimeUnit.SECONDS)).as("a lease renewal passes a closed gate").isEqualTo(1);

        gate.release();
        next.get(10, TimeUnit.SECONDS);
        assertThat(datastore.get(key).getLong("n")).isEqualTo(2);
    }
}
