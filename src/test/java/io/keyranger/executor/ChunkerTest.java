package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.Chunker;
import io.keyranger.executor.cells.CommitBytes;
import io.keyranger.executor.local.RampingRateLimiter;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapResult;
import io.keyranger.formats.undo.UndoImage;
import io.keyranger.formats.undo.UndoRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.Assertions;
import org.assertj.core.data.Offset;
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
        // 25 entity groups a transaction: the cell's ledger, the next cell's (the span's tail), each with its root
        // when divided, and a counter shard
        List<List<Key>> chunks = Chunker.chunks(roots(100), ServerLimits.EMULATOR, true);
        assertThat(chunks).allMatch(c -> c.size() <= 20);
        assertThat(chunks.stream().mapToInt(List::size).sum()).isEqualTo(100);
        assertThat(chunks.get(0)).hasSize(20);
    }

    /**
     * A page of an import's entries: with a record an entity, each entry is two entity groups and two mutations; with
     * its undo batched (its input holds each key once), one, and the commit's records count as mutations.
     */
    @Test
    void anImportWhoseUndoIsBatchedPutsAboutTwiceTheEntriesInACommit() {
        CellPlan oneCell = new CellPlan(KeyOrder.PRODUCTION, List.of());
        List<List<Key>> perEntity = Chunker.records(roots(1_000), ServerLimits.PRODUCTION, true, false, oneCell);
        List<List<Key>> batched = Chunker.records(roots(1_000), ServerLimits.PRODUCTION, true, true, oneCell);
        assertThat(perEntity.get(0)).hasSize(248); // 2 × 248, the ledgers of its cell and the tail, a shard: 499
        assertThat(batched.get(0)).hasSizeBetween(480, 496);
        assertThat(batched.stream().mapToInt(List::size).sum()).isEqualTo(1_000);
        assertThat(Chunker.records(roots(100), ServerLimits.EMULATOR, true, false, oneCell))
                .as("25 entity groups: a record of its own an entry").allMatch(c -> c.size() <= 11);
        assertThat(Chunker.records(roots(100), ServerLimits.EMULATOR, true, true, oneCell))
                .as("25 entity groups: the records under the ledger").allMatch(c -> c.size() <= 22)
                .anyMatch(c -> c.size() > 11);
    }

    @Test
    void copyingHalvesTheChunkBecauseEachKeyAlsoWritesElsewhere() {
        assertThat(Chunker.chunks(roots(100), ServerLimits.EMULATOR, true, 2)).allMatch(c -> c.size() <= 11);
    }

    /**
     * A revert's page is of undo records, each weighed by the images its key says it holds: on the emulator one record
     * of the most images a record holds fits a transaction alone (its group, each image's entity, two ledgers with
     * their roots, a shard: 1 + 19 + 4 + 1 = 25), so two never share one; in production the mutations count them.
     */
    @Test
    void aRevertsChunkIsWeighedByTheImagesItsRecordsHold() {
        Key ledger = Key.newBuilder("p", "_KeyRangerLedger", "cell").build();
        int most = Chunker.imagesPerRecord(ServerLimits.EMULATOR);
        assertThat(most).isEqualTo(19);
        List<Key> records = new ArrayList<>();
        for (Key target : roots(6)) {
            records.add(UndoRecords.batchKey(ledger, "j", most, target));
        }
        List<List<Key>> onEmulator = Chunker.chunks(records, ServerLimits.EMULATOR, true, 2, true, true,
                UndoRecords::imagesIn, null);
        assertThat(onEmulator).hasSize(6).allMatch(c -> c.size() == 1);
        List<Key> single = roots(6); // records of one target each, under the same ledger: 6 images
        assertThat(Chunker.chunks(single, ServerLimits.EMULATOR, true, 2, true, true, UndoRecords::imagesIn, null))
                .hasSize(1);

        List<Key> big = new ArrayList<>();
        for (Key target : roots(6)) {
            big.add(UndoRecords.batchKey(ledger, "j", 200, target));
        }
        // 200 restores and the revert's own undo record a key, ledgers and a shard: two records within 500 mutations
        assertThat(Chunker.chunks(big, ServerLimits.PRODUCTION, true, 2, true, true, UndoRecords::imagesIn, null))
                .hasSize(3).allMatch(c -> c.size() == 2);
        assertThat(Chunker.imagesPerRecord(ServerLimits.PRODUCTION)).isEqualTo(Integer.MAX_VALUE);
    }

    /**
     * A job whose undo is one batch a commit writes a record or a few, not one a key: in production a commit of an
     * increment with undo holds nearly as many keys as one without (500 mutations less ledgers, a shard and the room
     * for a batch cut by the entity limit), not half as many.
     */
    @Test
    void aBatchedUndoTakesAFewMutationsACommitNotOneAKey() {
        List<List<Key>> batched = Chunker.chunks(roots(960), ServerLimits.PRODUCTION, true, 1, true, true, k -> 1,
                null);
        List<List<Key>> none = Chunker.chunks(roots(960), ServerLimits.PRODUCTION, true, 1, false, false, k -> 1,
                null);
        assertThat(batched).hasSize(2);
        assertThat(batched.get(0)).hasSizeGreaterThanOrEqualTo(480);
        assertThat(none).hasSize(2);
        // per-target records (a copy, an import) still take a mutation a key
        assertThat(Chunker.chunks(roots(960), ServerLimits.PRODUCTION, true, 1, true, false, k -> 1, null))
                .hasSize(4);
    }

    @Test
    void aCopyWithUndoLeavesRoomForTheRecordOfEachTarget() {
        // each key: its own group, its target's, and the target's undo record's; two ledgers (and their roots when
        // divided) and a shard: 3k + 5 <= 25
        List<List<Key>> chunks = Chunker.chunks(roots(100), ServerLimits.EMULATOR, true, 2, true, null);
        assertThat(chunks).allMatch(c -> c.size() <= 6);
        assertThat(chunks.get(0)).hasSize(6);
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
        CellPlan cells = new CellPlan(KeyOrder.EMULATOR, bounds);
        List<List<Key>> chunks = Chunker.chunks(keys, ServerLimits.EMULATOR, true, 1, cells);
        assertThat(chunks.stream().mapToInt(List::size).sum()).isEqualTo(100);
        for (List<Key> chunk : chunks) {
            int ledgers = 2 * (cells.cellOf(chunk.get(chunk.size() - 1)) - cells.cellOf(chunk.get(0)) + 2);
            assertThat(chunk.size() + ledgers + 1).as("entity groups of %s", chunk).isLessThanOrEqualTo(25);
        }
        assertThat(chunks.get(0).size()).isBetween(12, 16);
        // a count touches no entity: only ledgers and the shard, so a page over 25 cells is still cut
        assertThat(Chunker.chunks(keys, ServerLimits.EMULATOR, false, 1, cells)).hasSizeGreaterThan(1)
                .allSatisfy(c -> assertThat(2 * (cells.cellOf(c.get(c.size() - 1)) - cells.cellOf(c.get(0)) + 2) + 1)
                        .isLessThanOrEqualTo(25));
    }

    @Test
    void chunksAreCutByBytesWithinTheRequestLimitAndATooLargeItemIsARunOfItsOwn() {
        // the emulator's 4 MiB request, less an eighth: 3,670,016 bytes a commit
        assertThat(ServerLimits.EMULATOR.commitBytes()).isEqualTo(3_670_016L);
        assertThat(ServerLimits.PRODUCTION.commitBytes()).isEqualTo(9_175_040L);
        List<Long> sizes = List.of(2_000_000L, 1_000L, 1_000L, 2_000_000L, 2_000_000L, 5_000_000L, 10L);
        List<List<Long>> runs = Chunker.bySize(sizes, Long::longValue, 8_192, ServerLimits.EMULATOR);
        assertThat(runs).containsExactly(List.of(2_000_000L, 1_000L, 1_000L), List.of(2_000_000L),
                List.of(2_000_000L), List.of(5_000_000L), List.of(10L));
    }

    @Test
    void ordinaryEntitiesAreNotCutSmallerByBytesThanByCount() {
        // 500 keys of entities of 2 KiB, each with an undo record as large: far within production's 9 MiB a commit,
        // so the count (500 mutations) cuts, as before
        assertThat(Chunker.bySize(roots(500), k -> 4_096L, 8_192, ServerLimits.PRODUCTION)).hasSize(1);
        assertThat(Chunker.bySize(roots(22), k -> 4_096L, 8_192, ServerLimits.EMULATOR)).hasSize(1);
    }

    @Test
    void aSingleChangeNoCommitCanHoldIsLeftUnchangedWithAReasonAndSeveralAreCut() {
        ServerLimits small = new ServerLimits(25, 500, 80_000); // 70,000 bytes a commit
        Key one = roots(1).get(0);
        byte[] random = new byte[40_000]; // random bytes do not compress: the undo record is as large again
        new Random(43).nextBytes(random);
        Entity big = Entity.newBuilder(one)
                .set("data", BlobValue.newBuilder(Blob.copyFrom(
                        random)).setExcludeFromIndexes(true).build()).build();
        MapResult result = new MapResult(List.of(big), List.of(), 0,
                Map.of("incremented", 1L));
        Entity record = new UndoImage(one, null, big).toEntity(
                UndoRecords.rootKey("j", one));
        assertThat(CommitBytes.sized(result, List.of(), List.of(one), 8_192, small, false))
                .isSameAs(result);
        MapResult left = CommitBytes.sized(result, List.of(record),
                List.of(one), 8_192, small, true);
        assertThat(left.puts()).isEmpty();
        assertThat(left.skipped()).isEqualTo(1);
        assertThat(left.counters()).containsOnlyKeys("skipped: " + Chunker.OVER_REQUEST);
        assertThat(left.problems()).singleElement().satisfies(p -> assertThat(p.reason())
                .contains("over the 70000 bytes one commit of this server may hold: left unchanged")
                .contains("--no-undo"));
        // a key that stands for several entities (a revert's record of 12 images) left unchanged: each is skipped
        MapResult record12 = CommitBytes.sized(result, List.of(record), List.of(List.of(one)), List.of(one),
                k -> k, k -> 12, 8_192, small, true);
        assertThat(record12.skipped()).isEqualTo(12);
        assertThat(record12.counters()).containsEntry("skipped: " + Chunker.OVER_REQUEST, 12L);

        List<Key> two = roots(2);
        MapResult both = new MapResult(two.stream().map(k ->
                Entity.newBuilder(k, big).build()).toList(), List.of(), 0, Map.of());
        Assertions.assertThatThrownBy(() -> CommitBytes.sized(both,
                List.of(), two, 8_192, small, false)).isInstanceOfSatisfying(
                CommitBytes.TooLarge.class, e -> assertThat(e.bytes()).containsOnlyKeys(two));
    }

    @Test
    void keyOnlyReadersCommitAPageAtOnce() {
        assertThat(Chunker.chunks(roots(300), ServerLimits.EMULATOR, false)).hasSize(1);
    }

    @Test
    void qpsRampsUpFrom500ByHalfEveryFiveMinutes() {
        assertThat(RampingRateLimiter.rateAt(10_000, 0)).isEqualTo(500);
        assertThat(RampingRateLimiter.rateAt(10_000, TimeUnit.MINUTES.toNanos(5))).isEqualTo(750, Offset.offset(0.01));
        assertThat(RampingRateLimiter.rateAt(10_000, TimeUnit.MINUTES.toNanos(10))).isEqualTo(1125, Offset.offset(0.01));
        assertThat(RampingRateLimiter.rateAt(100, 0)).isEqualTo(100);
        assertThat(RampingRateLimiter.rateAt(2_000, TimeUnit.HOURS.toNanos(2))).isEqualTo(2_000);
    }
}
