package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.Chunker;
import io.keyranger.executor.local.RampingRateLimiter;
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
        // 25 entity groups a transaction: the cell's ledger, the next cell's (the span's tail) and a counter shard
        List<List<Key>> chunks = Chunker.chunks(roots(100), ServerLimits.EMULATOR, true);
        assertThat(chunks).allMatch(c -> c.size() <= 22);
        assertThat(chunks.stream().mapToInt(List::size).sum()).isEqualTo(100);
        assertThat(chunks.get(0)).hasSize(22);
    }

    @Test
    void copyingHalvesTheChunkBecauseEachKeyAlsoWritesElsewhere() {
        assertThat(Chunker.chunks(roots(100), ServerLimits.EMULATOR, true, 2)).allMatch(c -> c.size() <= 11);
    }

    @Test
    void aCopyWithUndoLeavesRoomForTheRecordOfEachTarget() {
        // each key: its own group, its target's, and the target's undo record's; two ledgers and a shard: 3k + 3 <= 25
        List<List<Key>> chunks = Chunker.chunks(roots(100), ServerLimits.EMULATOR, true, 2, true, null);
        assertThat(chunks).allMatch(c -> c.size() <= 7);
        assertThat(chunks.get(0)).hasSize(7);
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
        assertThat(chunks).extracting(List::size).containsExactly(497, 497, 206);
    }

    @Test
    void aChunkOverManyCellsLeavesRoomForEachCellsLedger() {
        // a cell every 4 keys: a chunk of k keys spans about k / 4 cells, each with a ledger in the transaction
        List<Key> keys = roots(100);
        List<Key> bounds = new ArrayList<>();
        for (int i = 4; i < 100; i += 4) {
            bounds.add(keys.get(i));
        }
        CellPlan cells = new CellPlan(io.keyranger.keys.KeyOrder.EMULATOR, bounds);
        List<List<Key>> chunks = Chunker.chunks(keys, ServerLimits.EMULATOR, true, 1, cells);
        assertThat(chunks.stream().mapToInt(List::size).sum()).isEqualTo(100);
        for (List<Key> chunk : chunks) {
            int ledgers = cells.cellOf(chunk.get(chunk.size() - 1)) - cells.cellOf(chunk.get(0)) + 2;
            assertThat(chunk.size() + ledgers + 1).as("entity groups of %s", chunk).isLessThanOrEqualTo(25);
        }
        assertThat(chunks.get(0).size()).isBetween(16, 19);
        // a count touches no entity: only ledgers and the shard, so a page over 25 cells is still cut
        assertThat(Chunker.chunks(keys, ServerLimits.EMULATOR, false, 1, cells)).hasSizeGreaterThan(1)
                .allSatisfy(c -> assertThat(cells.cellOf(c.get(c.size() - 1)) - cells.cellOf(c.get(0)) + 3)
                        .isLessThanOrEqualTo(25));
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
