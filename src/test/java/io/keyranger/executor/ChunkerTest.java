package io.keyranger.executor;

import io.keyranger.datastore.ServerLimits;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ChunkerTest {
    private static List<Key> roots(int n) {
        List<Key> keys = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            keys.add(Key.newBuilder("p", "K", i, "").build());
        }
        return keys;
    }

    @Test
    void emulatorChunksLeaveRoomForTheLedgersAndACounterShard() {
        // 25 entity groups a transaction: up to 3 cell ledgers and a counter shard ride along
        List<List<Key>> chunks = Chunker.chunks(roots(100), ServerLimits.EMULATOR, true);
        assertThat(chunks).allMatch(c -> c.size() <= 21);
        assertThat(chunks.stream().mapToInt(List::size).sum()).isEqualTo(100);
        assertThat(chunks.get(0)).hasSize(21);
    }

    @Test
    void copyingHalvesTheChunkBecauseEachKeyAlsoWritesElsewhere() {
        assertThat(Chunker.chunks(roots(100), ServerLimits.EMULATOR, true, 2)).allMatch(c -> c.size() <= 10);
    }

    @Test
    void keysUnderOneRootShareAnEntityGroup() {
        List<Key> children = new ArrayList<>();
        for (int i = 1; i <= 60; i++) {
            children.add(Key.newBuilder("p", "K", i, "").addAncestor(PathElement.of("Org", "acme")).build());
        }
        assertThat(Chunker.chunks(children, ServerLimits.EMULATOR, true)).hasSize(1);
    }

    @Test
    void productionChunksAreBoundByMutations() {
        List<List<Key>> chunks = Chunker.chunks(roots(1200), ServerLimits.PRODUCTION, true);
        assertThat(chunks).extracting(List::size).containsExactly(496, 496, 208);
    }

    @Test
    void keyOnlyReadersCommitAPageAtOnce() {
        assertThat(Chunker.chunks(roots(300), ServerLimits.EMULATOR, false)).hasSize(1);
    }

    @Test
    void qpsRampsUpFrom500ByHalfEveryFiveMinutes() {
        assertThat(RampingRateLimiter.rateAt(10_000, 0)).isEqualTo(500);
        assertThat(RampingRateLimiter.rateAt(10_000, TimeUnit.MINUTES.toNanos(5))).isEqualTo(750, org.assertj.core.data.Offset.offset(0.01));
        assertThat(RampingRateLimiter.rateAt(10_000, TimeUnit.MINUTES.toNanos(10))).isEqualTo(1125, org.assertj.core.data.Offset.offset(0.01));
        assertThat(RampingRateLimiter.rateAt(100, 0)).isEqualTo(100);
        assertThat(RampingRateLimiter.rateAt(2_000, TimeUnit.HOURS.toNanos(2))).isEqualTo(2_000);
    }
}
