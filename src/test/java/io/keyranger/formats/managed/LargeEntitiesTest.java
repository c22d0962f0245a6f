package io.keyranger.formats.managed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RawEntities;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.UndoKept;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Entities near Datastore's 1 MiB limit (1,000,000 unindexed random bytes each, which do not compress, so each undo
 * record is about as large again), among small ones: a restore, an increment and its revert, and an import each commit
 * them within the server's request limit (the emulator's is 4 MiB), and end exact, raw value by raw value.
 */
class LargeEntitiesTest {
    private static final int LARGE = 6;
    private static final int SMALL = 14;

    @TempDir
    Path dir;
    private ConnectionSpec conn;
    private Datastore datastore;
    private InProcessCli cli;
    private List<Key> keys;
    private Map<String, JsonNode> seeded;

    @BeforeEach
    void seed() throws Exception {
        conn = SharedEmulator.freshProject("large");
        datastore = SharedEmulator.connect(conn);
        cli = new InProcessCli(dir, conn);
        Random random = new Random(43);
        keys = new ArrayList<>();
        for (int i = 0; i < LARGE + SMALL; i++) {
            byte[] data = new byte[i >= 1 && i <= LARGE ? 1_000_000 : 100];
            random.nextBytes(data);
            Entity entity = Entity.newBuilder(datastore.newKeyFactory().setKind("Big").newKey("b" + (100 + i)))
                    .set("data", BlobValue.newBuilder(Blob.copyFrom(data)).setExcludeFromIndexes(true).build())
                    .set("n", (long) i).build();
            datastore.put(entity); // one a commit: a few of them are over the emulator's request limit together
            keys.add(entity.getKey());
        }
        seeded = raw();
        assertThat(seeded).hasSize(LARGE + SMALL);
        assertThat(seeded.values().stream().filter(e -> e.path("properties").path("data").path("blobValue").asText()
                .length() > 1_300_000)).hasSize(LARGE);
    }

    /** The kind as the emulator answers it, raw, three entities a query (its answers may be 4 MiB at most). */
    private Map<String, JsonNode> raw() throws Exception {
        return RawEntities.of(conn, "", "Big", 3);
    }

    private void deleteAll() {
        keys.forEach(datastore::delete);
        assertThat(datastore.fetch(keys.toArray(new Key[0]))).containsOnlyNulls();
    }

    private static void assertOk(InProcessCli.Result result) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    }

    @Test
    void aRestoreOfEntitiesNearOneMebibyteFromTheEmulatorsOwnExportIsExact() throws Exception {
        Path export = EmulatorExports.export(conn, dir, null);
        deleteAll();

        InProcessCli.Result restore = cli.run("restore", "--export", export.toString(), "--kind", "Big", "--job-id",
                "back");
        assertOk(restore);
        assertThat(restore.out()).contains("restored (missing): " + (LARGE + SMALL));
        assertThat(raw()).isEqualTo(seeded);

        // again, with all of them live: each is read and found as in the export, none written
        InProcessCli.Result again = cli.run("restore", "--export", export.toString(), "--kind", "Big", "--job-id",
                "again");
        assertOk(again);
        assertThat(again.out()).contains("already as in the export: " + (LARGE + SMALL));
        assertThat(raw()).isEqualTo(seeded);
    }

    @Test
    void anIncrementOverEntitiesNearOneMebibyteCommitsThemAllAndItsRevertBringsThemBackExactly() throws Exception {
        InProcessCli.Result inc = cli.run("run", "--kind", "Big", "--mapper",
                cli.mapper("{\"template\":\"increment\",\"property\":\"n\",\"amount\":1000}").toString(),
                "--job-id", "inc", "--page-size", "40", "--workers", "2");
        assertOk(inc);
        Map<String, JsonNode> incremented = raw();
        assertThat(incremented).hasSize(LARGE + SMALL);
        incremented.forEach((key, entity) -> {
            JsonNode before = seeded.get(key).path("properties");
            assertThat(entity.path("properties").path("n").path("integerValue").asLong())
                    .isEqualTo(before.path("n").path("integerValue").asLong() + 1000);
            assertThat(entity.path("properties").path("data")).isEqualTo(before.path("data"));
        });

        InProcessCli.Result revert = cli.run("revert", "inc", "--job-id", "undo-inc");
        assertOk(revert);
        assertThat(revert.out()).contains("restored: " + (LARGE + SMALL));
        assertThat(raw()).isEqualTo(seeded);
    }

    /**
     * The one commit protocol itself (the local runner's, and the Beam runner's): a chunk of all twenty keys in one
     * cell, six of them near 1 MiB with their undo records, commits in pieces that each fit one request (the emulator
     * refuses even to answer the chunk's lookup, 6 MB: that halves it too); committed again, every key is found covered
     * and nothing applies twice.
     */
    @Test
    void aChunkOverTheRequestLimitCommitsInPiecesExactlyOnce() throws Exception {
        String jobId = "chunk";
        ShardedCounter.open(datastore, JobSpec.counterName(jobId), 4);
        KeyOrder order = KeyOrder.EMULATOR;
        PageMapper mapper = Mappers.create(MapperSpec
                .parse("{\"template\":\"increment\",\"property\":\"n\",\"amount\":1000}"));
        CellCommitter committer = new CellCommitter(datastore,
                order, mapper, jobId, new CellPlan(order, List.of()),
                ServerLimits.EMULATOR);
        List<Key> chunk = keys.stream().sorted(order).toList();

        CellCommitter.Outcome first = committer.commit(
                KeyRange.all(order), chunk);
        assertThat(first.applied()).isEqualTo(LARGE + SMALL);
        assertThat(first.increments()).containsEntry("written", (long) (LARGE + SMALL));
        CellCommitter.Outcome again = committer.commit(
                KeyRange.all(order), chunk);
        assertThat(again.applied()).isZero();
        assertThat(again.alreadyApplied()).isEqualTo(LARGE + SMALL);

        Map<String, JsonNode> now = raw();
        assertThat(now).hasSize(LARGE + SMALL);
        now.forEach((key, entity) -> {
            JsonNode before = seeded.get(key).path("properties");
            assertThat(entity.path("properties").path("n").path("integerValue").asLong())
                    .isEqualTo(before.path("n").path("integerValue").asLong() + 1000);
            assertThat(entity.path("properties").path("data")).isEqualTo(before.path("data"));
        });
        // one undo image each, written once
        assertThat(UndoKept.targets(datastore, jobId)).hasSize(LARGE + SMALL).doesNotHaveDuplicates();
    }

    @Test
    void aJsonLinesImportOfEntitiesNearOneMebibyteIsExact() throws Exception {
        List<String> lines = new ArrayList<>();
        for (Key key : keys) {
            lines.add(EntityCodec.encode(datastore.get(key)).toString());
        }
        Path file = dir.resolve("big.jsonl");
        Files.write(file, lines);
        deleteAll();

        InProcessCli.Result imported = cli.run("run", "--kind", "Big", "--mapper",
                cli.mapper("{\"template\":\"import\",\"file\":\"" + file + "\"}").toString(), "--job-id", "imp");
        assertOk(imported);
        assertThat(raw()).isEqualTo(seeded);
    }
}
