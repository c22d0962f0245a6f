package io.keyranger.mapper;

import io.keyranger.job.LeaseMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import io.keyranger.KeyRangerException;
import io.keyranger.formats.managed.ExportSnapshot;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.datastore.Session;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.keys.KeyOrder;
import io.keyranger.executor.Engine;
import io.keyranger.support.Jobs;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Export, delete, import: the kind comes back exactly, every value type and index flag included. */
class ExportImportTest {
    @TempDir
    Path dir;

    @Test
    void exportDeleteImportRestoresTheKindExactly() throws Exception {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("roundtrip"));
        List<Entity> originals = new ArrayList<>();
        Key reference = Key.newBuilder(datastore.getOptions().getProjectId(), "Ref", "target", "")
                .addAncestor(PathElement.of("Org", 7L)).build();
        for (int i = 1; i <= 120; i++) {
            Key key = switch (i % 3) {
                case 0 -> datastore.newKeyFactory().setKind("Thing").newKey(i * 1_000_000_007L);
                case 1 -> datastore.newKeyFactory().setKind("Thing").newKey("ñame-😀-" + i);
                default -> datastore.newKeyFactory().setKind("Thing").addAncestors(PathElement.of("Org", "a" + i % 4),
                        PathElement.of("Team", i)).newKey("member-" + i);
            };
            FullEntity<?> embedded = FullEntity.newBuilder().set("street", "Main " + i)
                    .set("zip", LongValue.newBuilder(10_000 + i).setExcludeFromIndexes(true).build()).build();
            originals.add(Entity.newBuilder(key)
                    .set("nothing", NullValue.of())
                    .set("flag", i % 2 == 0)
                    .set("big", Long.MAX_VALUE - i)
                    .set("ratio", DoubleValue.newBuilder(i / 7.0).setExcludeFromIndexes(true).build())
                    .set("label", "ünïcödé ✓ " + i)
                    .set("longText", StringValue.newBuilder("x".repeat(2000)).setExcludeFromIndexes(true).build())
                    .set("at", Timestamp.ofTimeSecondsAndNanos(1_700_000_000L + i, 123_456_789))
                    .set("bytes", BlobValue.newBuilder(Blob.copyFrom(new byte[] {0, (byte) i, -1, 42}))
                            .setExcludeFromIndexes(true).build())
                    .set("ref", reference)
                    .set("where", LatLng.of(52.5 + i / 1000.0, 13.4))
                    .set("address", EntityValue.of(embedded))
                    .set("tags", ListValue.of(StringValue.of("a"), LongValue.of(i), NullValue.of()))
                    .build());
        }
        datastore.put(originals.toArray(new Entity[0]));
        // Datastore keeps microseconds: compare with what it stored, read back independently
        Map<Key, Entity> stored = read(datastore);
        assertThat(stored).hasSize(120);
        Path file = dir.resolve("things.jsonl");
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, KeyOrder.EMULATOR, ServerLimits.EMULATOR);
        JobResult exported = executor.start(Jobs.over("Thing").id("export-things")
                .mapper("export", "file", file.toString()).shards(3).workers(3).pageSize(25).spec(), JobListener.NONE).await();
        assertThat(exported.status()).isEqualTo(JobStatus.DONE);
        assertThat(Files.readAllLines(file)).hasSize(120);
        assertThat(Files.list(dir).map(p -> p.getFileName().toString()))
                .as("the file and its record, nothing left over")
                .containsExactlyInAnyOrder("things.jsonl", "things.jsonl" + ExportSnapshot.JSON_LINES_SUFFIX);
        List<String> lines = Files.readAllLines(file);
        List<Key> exportedOrder = lines.stream().map(l -> EntityCodec.decode(
                readTree(l), datastore.getOptions().getProjectId(), "").getKey()).toList();
        List<Key> sorted = new ArrayList<>(exportedOrder);
        sorted.sort(KeyOrder.EMULATOR);
        assertThat(exportedOrder).as("the export is in key order").isEqualTo(sorted);

        JobResult deleted = executor.start(Jobs.over("Thing").id("delete-things").mapper("delete").pageSize(50)
                .spec(), JobListener.NONE).await();
        assertThat(deleted.total("deleted")).isEqualTo(120);
        assertThat(read(datastore)).isEmpty();

        ConnectionSpec conn = ConnectionSpec.emulator(
                SharedEmulator.get().hostPort(), datastore.getOptions().getProjectId());
        ConnectionSpec readOnly = new ConnectionSpec(conn.emulatorHost(),
                conn.projectId(), "", "", null, true);
        JobSpec importing = Jobs.over("Thing").id("import-things").mapper("import", "file", file.toString()).spec();
        assertThatThrownBy(() -> launcher(readOnly, datastore).start(Jobs.over("Thing").id("import-read-only")
                .mapper("import", "file", file.toString()).spec(), LeaseMode.RESUME, JobListener.NONE, m -> { }))
                .isInstanceOf(KeyRangerException.class).hasMessage(
                        "The connection is read-only: the 'import' mapper writes to Thing.");
        assertThat(read(datastore)).as("a read-only import wrote nothing").isEmpty();
        assertThat(new JobStore(datastore).listJobs().stream()
                .map(j -> j.spec().jobId())).as("nor a job").doesNotContain("import-read-only");

        JobResult imported = launcher(conn, datastore).start(importing, LeaseMode.RESUME, JobListener.NONE,
                m -> { }).await();
        assertThat(imported.status()).isEqualTo(JobStatus.DONE);
        assertThat(imported.total("written")).isEqualTo(120);
        Map<Key, Entity> restored = read(datastore);
        assertThat(restored).hasSize(120);
        assertThat(restored).isEqualTo(stored);
        JobResult again = launcher(conn, datastore).start(importing, LeaseMode.RESUME, JobListener.NONE,
                m -> { }).await();
        assertThat(again.total("written")).as("the same import id is done already: nothing runs again")
                .isEqualTo(120);
        assertThat(again.message()).contains("is done already");
    }

    private static Engine launcher(ConnectionSpec conn,
                                                              Datastore datastore) {
        return new Engine(Session.of(conn, datastore),
                RetryPolicy.DEFAULT, Duration.ofSeconds(30));
    }

    private static JsonNode readTree(String line) {
        try {
            return new ObjectMapper().readTree(line);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<Key, Entity> read(Datastore datastore) {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Thing").build()).forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }
}
