package io.keyranger.undo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntitySize;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.cells.Chunker;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyFormat;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.UndoKept;
import io.keyranger.formats.undo.UndoRecords;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * Undo at a few percent: a job that writes each key once keeps one undo record per commit, holding the before-image of
 * every entity the commit changed, and its revert (itself kept the same way) takes back each entity exactly once.
 */
@OnDataEmulators
class BatchedUndoTest {
    @Parameter
    ServerType server;
    private static final int ENTITIES = 400;

    @TempDir
    Path dir;

    private Datastore datastore;
    private InProcessCli cli;
    private Map<Key, Entity> seeded;

    @BeforeEach
    void seed() {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "batched");
        datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Rich", ENTITIES));
        cli = new InProcessCli(dir, conn);
        seeded = RichEntities.read(datastore, "", "Rich");
        assertThat(seeded).hasSize(ENTITIES);
    }

    private InProcessCli.Result run(String... args) throws Exception {
        return cli.run(args);
    }

    private static void assertOk(InProcessCli.Result result) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    }

    private Map<String, Long> totals(String jobId) {
        return ShardedCounter.existing(datastore, JobSpec.counterName(jobId)).totals();
    }

    @Test
    void anIncrementKeepsARecordPerCommitAndItsRevertRestoresEachEntityOnceSkippingAConflict() throws Exception {
        assertOk(run("run", "--kind", "Rich", "--mapper", cli.mapper(
                "{\"template\":\"increment\",\"property\":\"balance\",\"amount\":5}").toString(), "--job-id", "inc",
                "--page-size", "100", "--workers", "4"));
        Map<Key, Entity> incremented = RichEntities.read(datastore, "", "Rich");

        List<Entity> records = UndoKept.records(datastore, "inc");
        List<Key> targets = UndoKept.targets(datastore, "inc");
        System.out.printf("undo of an increment of %d entities on %s: %d record entities, %d images%n", ENTITIES,
                server, records.size(), targets.size());
        assertThat(targets).as("one image per entity changed, each once").hasSize(ENTITIES).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(seeded.keySet());
        assertThat(records).as("far fewer record entities than entities changed").hasSizeLessThanOrEqualTo(ENTITIES / 8)
                .allMatch(r -> UndoRecords.isBatch(r.getKey()));
        assertThat(records.stream().mapToInt(r -> UndoRecords.imagesIn(r.getKey())).sum()).isEqualTo(ENTITIES);
        assertThat(totals("inc")).containsEntry(JobResult.UNDO_IMAGES, (long) ENTITIES)
                .containsEntry(JobResult.UNDO_RECORDS, (long) records.size());
        if (server.limits().maxEntityGroups() > 0) {
            // reverting one record fits one transaction of the legacy emulator's 25 entity groups
            assertThat(records).allMatch(r -> UndoRecords.imagesIn(r.getKey())
                    <= Chunker.imagesPerRecord(server.limits()));
        }

        Key changed = seeded.keySet().iterator().next();
        Entity later = Entity.newBuilder(incremented.get(changed)).set("balance", -1L).build();
        datastore.put(later);

        InProcessCli.Result revert = run("revert", "inc", "--job-id", "undo-inc", "--page-size", "100");
        assertThat(revert.exitCode()).as(revert.out() + revert.err()).isNotZero(); // a conflict left: not all done
        assertThat(revert.out()).contains("restored: " + (ENTITIES - 1));
        assertThat(revert.err()).contains("1 entity changed since job inc");
        assertThat(revert.out() + revert.err()).as("the conflict named, with what differs")
                .contains(KeyFormat.format(changed) + ": changed since job inc: balance: the job left "
                        + incremented.get(changed).getLong("balance") + ", now -1");
        Map<Key, Entity> reverted = RichEntities.read(datastore, "", "Rich");
        assertThat(reverted.get(changed)).isEqualTo(later);
        Map<Key, Entity> expected = new HashMap<>(seeded);
        expected.put(changed, later);
        assertThat(reverted).isEqualTo(expected);

        // the revert's own undo is batched too, and exact: each entity it restored once
        List<Key> revertTargets = UndoKept.targets(datastore, "undo-inc");
        assertThat(revertTargets).hasSize(ENTITIES - 1).doesNotHaveDuplicates().doesNotContain(changed);
        assertThat(UndoKept.records(datastore, "undo-inc")).hasSizeLessThanOrEqualTo(ENTITIES / 8);
        assertThat(totals("undo-inc")).containsEntry(JobResult.UNDO_IMAGES, (long) ENTITIES - 1);
        // its reads (and so its cost line) count the entities it read, not only its records
        assertThat(totals("undo-inc").get("read")).as(revert.out())
                .isGreaterThanOrEqualTo((long) ENTITIES + UndoKept.records(datastore, "inc").size());

        assertOk(run("revert", "undo-inc", "--job-id", "undo-undo-inc"));
        Map<Key, Entity> again = new HashMap<>(incremented);
        again.put(changed, later);
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(again);
    }

    /**
     * An import of JSON lines and a restore from a managed export (KeyRanger's own, Google's format), each key once in
     * its input, keep a record a commit as a job over the kind does (their checks found each key once), and their
     * reverts take each entity back once: the import's to what it overwrote, the restore's to the entities missing.
     */
    @Test
    void anImportAndARestoreWhoseInputsHoldEachKeyOnceKeepARecordPerCommitAndRevertExactly() throws Exception {
        Path lines = dir.resolve("rich.jsonl");
        Path managed = dir.resolve("managed");
        assertOk(run("run", "--kind", "Rich", "--job-id", "to-lines", "--mapper", cli.mapper(
                "{\"template\":\"export\",\"file\":\"" + escaped(lines) + "\"}").toString()));
        assertOk(run("run", "--kind", "Rich", "--job-id", "to-managed", "--mapper", cli.mapper(
                "{\"template\":\"export\",\"format\":\"managed\",\"file\":\"" + escaped(managed) + "\"}")
                .toString()));
        List<Entity> edited = new ArrayList<>();
        seeded.values().forEach(e -> edited.add(Entity.newBuilder(e).set("balance", -1L).build()));
        SharedEmulator.putAll(datastore, edited);
        Map<Key, Entity> before = RichEntities.read(datastore, "", "Rich");

        assertOk(run("run", "--kind", "Rich", "--job-id", "imp", "--page-size", "100", "--mapper", cli.mapper(
                "{\"template\":\"import\",\"file\":\"" + escaped(lines) + "\"}").toString()));
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(seeded);
        assertBatched("imp", ENTITIES, ENTITIES / 8);
        assertOk(run("revert", "imp", "--job-id", "undo-imp"));
        assertThat(RichEntities.read(datastore, "", "Rich")).as("as the import found them").isEqualTo(before);

        List<Key> gone = new ArrayList<>(seeded.keySet()).subList(0, ENTITIES / 4);
        datastore.delete(gone.toArray(new Key[0]));
        Map<Key, Entity> missing = RichEntities.read(datastore, "", "Rich");
        InProcessCli.Result restore = run("restore", "--export", managed.toString(), "--kind", "Rich", "--job-id",
                "back", "--page-size", "100");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isEqualTo(7); // the edited ones skipped
        assertThat(restore.out()).contains("restored (missing): " + gone.size());
        Map<Key, Entity> expected = new HashMap<>(missing);
        gone.forEach(k -> expected.put(k, seeded.get(k)));
        assertThat(RichEntities.read(datastore, "", "Rich")).isEqualTo(expected);
        // a commit of an export's entries meets a quarter of them missing: a few images a record
        assertBatched("back", gone.size(), gone.size() / 2);
        assertOk(run("revert", "back", "--job-id", "undo-back"));
        assertThat(RichEntities.read(datastore, "", "Rich")).as("the restored ones gone again").isEqualTo(missing);
    }

    /**
     * Job {@code jobId} kept {@code images} before-images, each target once, in batches of a commit each: at most
     * {@code maxRecords} record entities.
     */
    private void assertBatched(String jobId, int images, int maxRecords) {
        List<Entity> records = UndoKept.records(datastore, jobId);
        assertThat(UndoKept.targets(datastore, jobId)).hasSize(images).doesNotHaveDuplicates();
        assertThat(records).as("a record a commit, not one an entity").hasSizeLessThanOrEqualTo(maxRecords)
                .allMatch(r -> UndoRecords.isBatch(r.getKey()));
        assertThat(totals(jobId)).containsEntry(JobResult.UNDO_IMAGES, (long) images)
                .containsEntry(JobResult.UNDO_RECORDS, (long) records.size());
    }

    private static String escaped(Path path) {
        return path.toString().replace("\\", "\\\\");
    }

    /**
     * Entities of 400 KB that do not compress: a commit's batch would be over Datastore's entity limit, so it is cut
     * into records that each fit, and every entity is still kept once and comes back.
     */
    @Test
    void aBatchOverTheEntityLimitIsCutIntoRecordsThatFit() throws Exception {
        Random random = new Random(48);
        List<Entity> big = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            byte[] data = new byte[400_000];
            random.nextBytes(data);
            big.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Big").newKey("big-" + i))
                    .set("n", (long) i)
                    .set("data", BlobValue.newBuilder(Blob.copyFrom(data)).setExcludeFromIndexes(true).build())
                    .build());
        }
        big.forEach(datastore::put);
        Map<Key, Entity> before = RichEntities.read(datastore, "", "Big");

        assertOk(run("run", "--kind", "Big", "--mapper", cli.mapper(
                "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1000}").toString(), "--job-id", "big"));
        assertThat(RichEntities.read(datastore, "", "Big").values()).allMatch(e -> e.getLong("n") >= 1000);
        List<Entity> records = UndoKept.records(datastore, "big");
        assertThat(UndoKept.targets(datastore, "big")).hasSize(6).doesNotHaveDuplicates();
        assertThat(records).allMatch(r -> EntitySize.bytes(r) <= EntitySize.MAX_BYTES);
        assertThat(records.size()).as("no record holds three images of 400 KB").isGreaterThanOrEqualTo(3);
        assertThat(totals("big")).containsEntry(JobResult.UNDO_IMAGES, 6L)
                .containsEntry(JobResult.UNDO_RECORDS, (long) records.size());

        InProcessCli.Result revert = run("revert", "big", "--job-id", "undo-big");
        assertOk(revert);
        assertThat(revert.out()).contains("restored: 6");
        assertThat(RichEntities.read(datastore, "", "Big")).isEqualTo(before);
    }

    /**
     * Before-states that compress well (zero-filled blobs of 310,000 bytes): a delete's batch of twelve is a small
     * record, but reverting it writes the twelve entities in full, more than one commit may hold. The record is cut so
     * that its revert fits a commit, and every entity comes back (exit 0 only then).
     */
    @Test
    void aRecordWhoseRestoreIsOverACommitIsCutSoEveryEntityComesBack() throws Exception {
        List<Entity> zeros = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            zeros.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Zeros").newKey("zeros-" + i))
                    .set("n", (long) i)
                    .set("data", BlobValue.newBuilder(Blob.copyFrom(new byte[310_000])).setExcludeFromIndexes(true)
                            .build())
                    .build());
        }
        zeros.forEach(datastore::put);
        Map<Key, Entity> before = RichEntities.read(datastore, "", "Zeros");
        assertThat(before).hasSize(12);

        assertOk(run("run", "--kind", "Zeros", "--mapper", cli.mapper("{\"template\":\"delete\"}").toString(),
                "--job-id", "del-zeros", "--shards", "1", "--workers", "1"));
        assertThat(RichEntities.read(datastore, "", "Zeros")).isEmpty();
        assertThat(UndoKept.targets(datastore, "del-zeros")).hasSize(12).doesNotHaveDuplicates();

        InProcessCli.Result revert = run("revert", "del-zeros", "--job-id", "undo-del-zeros", "--shards", "1",
                "--workers", "1");
        Map<Key, Entity> restored = RichEntities.read(datastore, "", "Zeros");
        assertThat(restored.keySet()).as(revert.out() + revert.err()).isEqualTo(before.keySet());
        assertThat(restored).isEqualTo(before);
        assertOk(revert);
        assertThat(revert.out()).contains("restored: 12");
        assertThat(totals("undo-del-zeros")).containsEntry("skipped", 0L)
                .containsEntry("read", 12L + UndoKept.records(datastore, "del-zeros").size());
    }
}
