package io.keyranger.formats.managed;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Value;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.MixedArrays;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An array mixing indexed and unindexed values ([1, "unidx" unindexed, "two"]) through a managed export: the format
 * keeps indexed values apart from unindexed ones, and Google's own export and import bring it back as [1, "two",
 * "unidx"] (measured here on the legacy emulator, which also stores it so). A restore from that export writes what
 * Google's import writes, and {@code export-info} and the restore's report say how many entities the format did not
 * keep the order of, so none is reported as restored as it was without a word.
 */
class MixedArrayOrderTest {
    @TempDir
    Path dir;

    @Test
    void aRestoreWritesWhatGooglesImportWritesAndSaysTheOrderIsNotKept() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("mixed-array");
        Datastore datastore = SharedEmulator.connect(conn);
        Key key = datastore.newKeyFactory().setKind("Mixed").newKey("m");
        Key plain = datastore.newKeyFactory().setKind("Mixed").newKey("plain");
        datastore.put(Entity.newBuilder(key).set("a", ListValue.of(LongValue.of(1),
                StringValue.newBuilder("unidx").setExcludeFromIndexes(true).build(), StringValue.of("two"))).build(),
                Entity.newBuilder(plain).set("a", ListValue.of(LongValue.of(1), LongValue.of(2))).build());
        Path export = EmulatorExports.export(conn, dir, null);
        Entity plainBefore = datastore.get(plain);
        datastore.delete(key, plain);
        EmulatorExports.importInto(conn, Path.of(ManagedExport.open(export).metadata()));
        Entity google = datastore.get(key);
        assertThat(google.<Value<?>>getList("a").stream().map(v -> (Object) v.get()).toList())
                .as("Google's import: indexed values first").containsExactly(1L, "two", "unidx");
        datastore.delete(key, plain);

        InProcessCli cli = new InProcessCli(dir, conn);
        InProcessCli.Result info = cli.offline("export-info", export.toString());
        assertThat(info.out()).as(info.out() + info.err()).contains("1 entity has arrays mixing indexed and "
                + "unindexed values: their order is not kept by the managed format");
        InProcessCli.Result restore = cli.run("restore", "--export", export.toString(), "--kind", "Mixed");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        assertThat(restore.out()).contains(MixedArrays.NOT_KEPT + ": 1").contains("restored (missing): 2");
        assertThat(restore.err()).contains("keyranger: 1 entity has arrays mixing indexed and unindexed values: "
                + "their order is not kept by the managed format");
        assertThat(datastore.get(key)).as("as Google's import wrote it").isEqualTo(google);
        assertThat(datastore.get(plain)).isEqualTo(plainBefore);
    }

    /**
     * The Firestore emulator keeps the array's order as written; KeyRanger's own managed export of it cannot, and says
     * so in the export's report, then the restore's: it comes back indexed-first, as Google's format holds it.
     */
    @Test
    void keyRangersOwnManagedExportSaysTheOrderIsNotKept() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "mixed-array-own");
        Datastore datastore = SharedEmulator.connect(conn);
        Key key = datastore.newKeyFactory().setKind("Mixed").newKey("m");
        datastore.put(Entity.newBuilder(key).set("a", ListValue.of(LongValue.of(1),
                StringValue.newBuilder("unidx").setExcludeFromIndexes(true).build(), StringValue.of("two"))).build());
        assertThat(values(datastore.get(key))).as("the Firestore emulator keeps the order")
                .containsExactly(1L, "unidx", "two");
        InProcessCli cli = new InProcessCli(dir, conn);
        Path export = dir.resolve("own-export");
        InProcessCli.Result run = cli.run("run", "--kind", "Mixed", "--mapper", cli.mapper("{\"template\": "
                + "\"export\", \"format\": \"managed\", \"file\": \"" + export + "\"}").toString());
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains(MixedArrays.NOT_KEPT + ": 1");
        datastore.delete(key);
        InProcessCli.Result restore = cli.run("restore", "--export", export.toString(), "--kind", "Mixed");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        assertThat(restore.err()).contains("keyranger: 1 entity has arrays mixing indexed and unindexed values: "
                + "their order is not kept by the managed format");
        assertThat(values(datastore.get(key))).containsExactly(1L, "two", "unidx");
    }

    private static List<Object> values(Entity entity) {
        return entity.<Value<?>>getList("a").stream().map(v -> (Object) v.get()).toList();
    }
}
