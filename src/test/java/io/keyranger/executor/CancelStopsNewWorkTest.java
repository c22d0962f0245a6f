package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobIds;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * Cancel stops new work: once a job is cancelled no range starts and no page begins; only the commits in flight end.
 * Many ranges wait for two workers when Cancel comes; the emulator's own count of incremented entities then says how
 * many were written after it, and a resume finishes the job with each entity incremented exactly once.
 */
@OnDataEmulators
class CancelStopsNewWorkTest {
    @Parameter
    ServerType server;
    private static final int ENTITIES = 800;
    private static final int SHARDS = 16;
    private static final int WORKERS = 2;
    private static final int PAGE = 20;
    private static final long CANCEL_AT = 40;

    @Test
    void afterCancelNoRangeStartsAndNoPageBeginsAndResumeFinishesExactlyOnce() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "cancel");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> wallets = new ArrayList<>();
        for (int i = 0; i < ENTITIES; i++) {
            wallets.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Wallet").newKey(String.format("w%05d", i)))
                    .set("n", 0).build());
        }
        SharedEmulator.putAll(datastore, wallets);
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, server.keyOrder(), server.limits());
        JobSpec spec = new JobSpec(JobIds.newJobId("Wallet"), "", "Wallet",
                MapperSpec.parse("{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}"), SHARDS, WORKERS,
                PAGE, 0);
        AtomicReference<JobHandle> handle = new AtomicReference<>();
        AtomicLong writtenAtCancel = new AtomicLong(-1);
        AtomicLong cancelledAt = new AtomicLong();
        CountDownLatch started = new CountDownLatch(1);
        Map<String, NodeSnapshot> nodes = new ConcurrentHashMap<>();
        handle.set(executor.start(spec, new JobListener() {
            @Override
            public void onTotals(Map<String, Long> totals) {
                try {
                    started.await(10, TimeUnit.SECONDS); // the handle is set
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                long written = totals.getOrDefault("written", 0L);
                synchronized (writtenAtCancel) {
                    if (written >= CANCEL_AT && writtenAtCancel.get() < 0) {
                        cancelledAt.set(System.nanoTime());
                        handle.get().cancel();
                        writtenAtCancel.set(written);
                    }
                }
            }

            @Override
            public void onNode(NodeSnapshot node) {
                nodes.put(node.id(), node);
            }
        }));
        started.countDown();
        JobResult first = handle.get().await();
        long stoppedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cancelledAt.get());

        assertThat(first.status()).isEqualTo(JobStatus.CANCELLED);
        long incremented = count(datastore, 1);
        long after = incremented - writtenAtCancel.get();
        System.out.printf("Cancel on %s: %d written at Cancel, %d after it, stopped %d ms after it%n", server,
                writtenAtCancel.get(), after, stoppedMillis);
        assertThat(incremented).as("the emulator's count agrees with the job's").isEqualTo(first.total("written"));
        assertThat(after).as("written after Cancel: at most a commit in flight per worker")
                .isLessThanOrEqualTo((long) WORKERS * PAGE);
        assertThat(nodes.values()).as("ranges that waited were not started")
                .anyMatch(n -> n.status() == NodeStatus.CANCELLED && n.startedAt() == null);
        assertThat(nodes.values()).as("no range is left shown running or waiting")
                .noneMatch(n -> n.status() == NodeStatus.RUNNING || n.status() == NodeStatus.QUEUED);

        JobResult resumed = executor.resume(spec.jobId(), JobListener.NONE).await();
        assertThat(resumed.status()).isEqualTo(JobStatus.DONE);
        assertThat(resumed.total("written")).isEqualTo(ENTITIES);
        assertThat(count(datastore, 1)).as("each wallet incremented exactly once").isEqualTo(ENTITIES);
        assertThat(count(datastore, 0) + count(datastore, 2)).isZero();
    }

    /** The wallets whose n is {@code n}, as the emulator's query finds them. */
    private static long count(Datastore datastore, long n) {
        long[] found = {0};
        datastore.run(Query.newKeyQueryBuilder().setKind("Wallet").setFilter(PropertyFilter.eq("n", n)).build())
                .forEachRemaining(k -> found[0]++);
        return found[0];
    }
}
