package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.FaultInjector;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One chunk's transaction on the real emulator: its round trips, and what a lost answer's retry does. */
class PageCommitterTest {
    private static final KeyOrder ORDER = KeyOrder.EMULATOR;

    @Test
    void aChunkReadsItsCheckpointCounterShardAndEntitiesInOneLookup() {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("commit"));
        List<Key> chunk = new ArrayList<>();
        for (long id = 1; id <= 20; id++) {
            Key key = datastore.newKeyFactory().setKind("Item").newKey(id);
            datastore.put(Entity.newBuilder(key).set("n", 0).build());
            chunk.add(key);
        }
        FaultInjector calls = new FaultInjector(0, 0, 0, 1);
        Datastore counted = calls.wrap(datastore);
        ShardedCounter counter = ShardedCounter.open(counted, "job:commit", 4);
        PageCommitter committer = new PageCommitter(counted, new JobStore(counted), ORDER,
                new AdaptiveSplitExecutorTest.PlusOne(), counter, "commit", null);
        RangeNode node = new RangeNode("r0", null, 0, KeyRange.all(ORDER));
        long lookups = calls.calls("get") + calls.calls("fetch");
        long commits = calls.calls("commit");
        long begins = calls.calls("newTransaction");

        PageCommitter.Outcome outcome = committer.commit(node, chunk);

        assertThat(outcome.applied()).isTrue();
        // three round trips in all: begin, one lookup, commit
        assertThat(calls.calls("newTransaction") - begins).isEqualTo(1);
        assertThat(calls.calls("get") + calls.calls("fetch") - lookups).as("lookups for one chunk").isEqualTo(1);
        assertThat(calls.calls("commit") - commits).isEqualTo(1);
        assertThat(chunk).allMatch(key -> datastore.get(key).getLong("n") == 1);
        assertThat(counter.totals()).containsEntry("read", 20L).containsEntry("written", 20L);

        // the same chunk again, as after a commit whose answer was lost: the checkpoint is past it, nothing applies
        PageCommitter.Outcome again = committer.commit(new RangeNode("r0", null, 0, KeyRange.all(ORDER)), chunk);
        assertThat(again.applied()).isFalse();
        assertThat(chunk).allMatch(key -> datastore.get(key).getLong("n") == 1);
        assertThat(counter.totals()).containsEntry("read", 20L);
    }

    @Test
    void simulatedLatencyDelaysEveryRoundTripBeginningATransactionToo() {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("latency"));
        FaultInjector slow = new FaultInjector(0, 0, 40, 1);
        Datastore wrapped = slow.wrap(datastore);
        long started = System.nanoTime();
        Transaction tx = wrapped.newTransaction();
        long beginMillis = (System.nanoTime() - started) / 1_000_000;
        tx.rollback();
        assertThat(beginMillis).as("begin took the latency").isGreaterThanOrEqualTo(40);
        assertThat(slow.calls("newTransaction")).isEqualTo(1);
        assertThat(slow.calls("rollback")).isEqualTo(1);
        assertThat(slow.failures()).isZero();
    }
}
