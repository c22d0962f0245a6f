package io.keyranger.executor.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.job.LeaseMode;
import io.keyranger.support.SharedEmulator;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A take that creates its fence on the real emulator: what it creates is asked for inside its transaction, written
 * with the fence, and a creation slower than the take's patience is committed by a fresh transaction.
 */
class JobLeaseCreationTest {
    private Datastore datastore;

    @BeforeEach
    void connect() {
        datastore = SharedEmulator.connect(SharedEmulator.freshProject("lease-create"));
    }

    private Key key(String kind, String name) {
        return datastore.newKeyFactory().setNamespace("").setKind(kind).newKey(name);
    }

    private JobLease lease(String id) {
        return JobLease.of(datastore, key("_KeyRangerJob", id), id, "Job " + id, JobLease.DEFAULT_DURATION);
    }

    /** A creation of fence {@code id} with one more entity, counting how often it is asked for. */
    private Supplier<JobLease.Creation> creation(String id, AtomicInteger asked, Duration firstTakes) {
        return () -> {
            if (asked.getAndIncrement() == 0 && !firstTakes.isZero()) {
                try {
                    Thread.sleep(firstTakes.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return new JobLease.Creation(Entity.newBuilder(key("_KeyRangerJob", id)).set("status", "RUNNING"),
                    List.of(Entity.newBuilder(key("Extra", id)).set("n", 1).build()));
        };
    }

    @Test
    void aCreatingTakeWritesTheFenceWithWhatComesWithItAndSaysItCreatedIt() {
        AtomicInteger asked = new AtomicInteger();
        JobLease first = lease("j1");

        assertThat(first.take(LeaseMode.CREATE, fence -> true, b -> b, creation("j1", asked, Duration.ZERO),
                m -> { })).isTrue();

        assertThat(first.createdIt()).isTrue();
        assertThat(asked).hasValue(1);
        Entity fence = datastore.get(key("_KeyRangerJob", "j1"));
        assertThat(fence.getLong("epoch")).isEqualTo(1);
        assertThat(datastore.get(key("Extra", "j1")).getLong("n")).isEqualTo(1);

        // found, not created: a take of the existing job never asks for a creation
        JobLease again = lease("j1");
        AtomicInteger askedAgain = new AtomicInteger();
        assertThat(again.take(LeaseMode.TAKE_OVER_NOW, fence2 -> true, b -> b,
                creation("j1", askedAgain, Duration.ZERO), m -> { })).isTrue();
        assertThat(again.createdIt()).isFalse();
        assertThat(askedAgain).hasValue(0);
        assertThat(datastore.get(key("_KeyRangerJob", "j1")).getLong("epoch")).isEqualTo(2);

        // CREATE of an id that exists is refused, and nothing is asked for or written
        assertThatThrownBy(() -> lease("j1").take(LeaseMode.CREATE, f -> true, b -> b,
                creation("j1", askedAgain, Duration.ZERO), m -> { }))
                .isInstanceOf(KeyRangerException.class).hasMessageContaining("exists already");
        assertThat(askedAgain).hasValue(0);
    }

    @Test
    void aCreationSlowerThanThePatienceIsCommittedByAFreshTransaction() {
        AtomicInteger asked = new AtomicInteger();
        JobLease lease = lease("slow");
        lease.creationPatience(Duration.ofMillis(200));

        assertThat(lease.take(LeaseMode.CREATE, fence -> true, b -> b, creation("slow", asked, Duration.ofMillis(600)),
                m -> { })).isTrue();

        assertThat(asked).as("asked again by the fresh transaction").hasValue(2);
        assertThat(lease.createdIt()).isTrue();
        assertThat(datastore.get(key("_KeyRangerJob", "slow")).getLong("epoch")).isEqualTo(1);
        assertThat(datastore.get(key("Extra", "slow")).getLong("n")).isEqualTo(1);
    }
}
