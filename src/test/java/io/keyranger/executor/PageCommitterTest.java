package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        JobStore store = new JobStore(counted);
        JobLease lease = store.lease("commit", JobLease.DEFAULT_DURATION);
        lease.take(JobLease.Mode.CREATE, f -> true, b -> b, Entity.newBuilder(store.jobKey("commit")), m -> { });
        PageCommitter committer = new PageCommitter(counted, store, ORDER,
                new AdaptiveSplitExecutorTest.PlusOne(), counter, "commit", null, lease, CommitHook.NONE);
        RangeNode node = new RangeNode("r0", null, 0, KeyRange.all(ORDER));
        datastore.put(store.nodeEntity("commit", node));
        long lookups = calls.calls("get") + calls.calls("fetch");
        long commits = calls.calls("commit");
        long begins = calls.calls("newTransaction");

        PageCommitter.Outcome outcome = committer.commit(node, chunk, false);

        assertThat(outcome.applied()).isTrue();
        // three round trips in all: begin, one lookup (with the job's fence), commit
        assertThat(calls.calls("newTransaction") - begins).isEqualTo(1);
        assertThat(calls.calls("get") + calls.calls("fetch") - lookups).as("lookups for one chunk").isEqualTo(1);
        assertThat(calls.calls("commit") - commits).isEqualTo(1);
        assertThat(chunk).allMatch(key -> datastore.get(key).getLong("n") == 1);
        assertThat(counter.totals()).containsEntry("read", 20L).containsEntry("written", 20L);

        // the same chunk again, as after a commit whose answer was lost: the checkpoint is past it, nothing applies
        PageCommitter.Outcome again = committer.commit(new RangeNode("r0", null, 0, KeyRange.all(ORDER)), chunk,
                false);
        // the job's fence rides on the checkpoint the commit reads anyway: still one lookup, no entity every commit reads
        assertThat(again.applied()).isFalse();
        assertThat(chunk).allMatch(key -> datastore.get(key).getLong("n") == 1);
        assertThat(counter.totals()).containsEntry("read", 20L);
    }

    @Test
    void aRunnerThatWasTakenOverCommitsNothingMore() {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("fenced"));
        List<Key> first = new ArrayList<>();
        List<Key> second = new ArrayList<>();
        for (long id = 1; id <= 20; id++) {
            Key key = datastore.newKeyFactory().setKind("Item").newKey(id);
            datastore.put(Entity.newBuilder(key).set("n", 0).build());
            (id <= 10 ? first : second).add(key);
        }
        JobStore store = new JobStore(datastore);
        JobLease mine = store.lease("fenced", JobLease.DEFAULT_DURATION);
        mine.take(JobLease.Mode.CREATE, f -> true, b -> b, Entity.newBuilder(store.jobKey("fenced")), m -> { });
        ShardedCounter counter = ShardedCounter.open(datastore, "job:fenced", 4);
        PageCommitter committer = new PageCommitter(datastore, store, ORDER, new AdaptiveSplitExecutorTest.PlusOne(),
                counter, "fenced", null, mine, CommitHook.NONE);
        RangeNode node = new RangeNode("r0", null, 0, KeyRange.all(ORDER));
        datastore.put(store.nodeEntity("fenced", node)); // the range as planned, with this runner's epoch
        PageCommitter.Outcome firstChunk = committer.commit(node, first, false);
        assertThat(firstChunk.applied()).isTrue();
        assertThat(firstChunk.checkpoint()).isEqualTo(new Checkpoint(first.get(9), 1, 10, 0));
        assertThat(node.checkpoint).as("the committer leaves the node to its worker").isEqualTo(Checkpoint.START);
        node.checkpoint = firstChunk.checkpoint();

        JobStore otherStore = new JobStore(datastore);
        JobLease other = otherStore.lease("fenced", JobLease.DEFAULT_DURATION);
        assertThatThrownBy(() -> other.take(JobLease.Mode.RESUME, f -> true, b -> b, null, m -> { }))
                .isInstanceOf(JobBusyException.class).hasMessageContaining("is being run by runner")
                .hasMessageContaining("--take-over");
        assertThat(other.take(JobLease.Mode.TAKE_OVER_NOW, f -> true, b -> b, null, m -> { })).isTrue();
        assertThat(other.epoch()).isEqualTo(mine.epoch() + 1);
        // the job's epoch alone does not stop the first runner: its ranges carry its epoch until claimed
        assertThat(new JobRanges(datastore, otherStore, CommitHook.NONE).claim(other, "fenced", ORDER, 24,
                RetryPolicy.DEFAULT)).extracting(RangeNode::lastKey)
                .containsExactly(first.get(9));

        assertThatThrownBy(() -> committer.commit(node, second, false)).isInstanceOf(JobFencedException.class)
                .hasMessageContaining("was taken over by runner").hasMessageContaining("applied nothing after that");
        assertThatThrownBy(mine::renew).isInstanceOf(JobFencedException.class);
        assertThat(first).allMatch(key -> datastore.get(key).getLong("n") == 1);
        assertThat(second).allMatch(key -> datastore.get(key).getLong("n") == 0);
        assertThat(counter.totals()).containsEntry("read", 10L);
        assertThat(JobStore.storedLastKey(datastore.get(store.nodeKey("fenced", "r0")))).isEqualTo(first.get(9));
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
