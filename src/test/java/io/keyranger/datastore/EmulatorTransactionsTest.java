package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.support.SharedEmulator;
import org.junit.jupiter.api.Test;

/**
 * What the legacy emulator's transactions do, which the fencing of jobs relies on (see {@code JobLease}): a write
 * commits only if nothing it read changed, and a read shared by two transactions is itself a conflict there. The
 * second is why no entity is read by every commit of a job.
 */
class EmulatorTransactionsTest {
    private final Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("tx"));
    private final Key fence = datastore.newKeyFactory().setKind("Fence").newKey("job");

    @Test
    void aCommitWhoseReadWasRewrittenMeanwhileAborts() {
        datastore.put(Entity.newBuilder(fence).set("epoch", 1).build());
        Transaction stale = datastore.newTransaction();
        stale.get(fence);
        datastore.put(Entity.newBuilder(fence).set("epoch", 2).build()); // a take-over
        stale.put(Entity.newBuilder(datastore.newKeyFactory().setKind("Work").newKey("w")).set("n", 1).build());
        assertThatThrownBy(stale::commit).isInstanceOf(DatastoreException.class)
                .satisfies(e -> assertThat(Retries.isAborted(e)).isTrue());
        assertThat(datastore.get(datastore.newKeyFactory().setKind("Work").newKey("w"))).isNull();
    }

    @Test
    void twoTransactionsThatOnlyReadTheSameEntityAbortEachOtherOnTheEmulator() {
        datastore.put(Entity.newBuilder(fence).set("epoch", 1).build());
        Transaction first = datastore.newTransaction();
        Transaction second = datastore.newTransaction();
        first.get(fence);
        second.get(fence);
        first.put(Entity.newBuilder(datastore.newKeyFactory().setKind("Work").newKey("a")).build());
        second.put(Entity.newBuilder(datastore.newKeyFactory().setKind("Work").newKey("b")).build());
        first.commit();
        // production's shared read locks would let both commit; the legacy emulator does not
        assertThatThrownBy(second::commit).isInstanceOf(DatastoreException.class)
                .satisfies(e -> assertThat(Retries.isAborted(e)).isTrue());
    }
}
