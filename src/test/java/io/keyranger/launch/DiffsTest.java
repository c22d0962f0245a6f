package io.keyranger.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import io.keyranger.KeyRangerException;
import io.keyranger.backup.ExportDiff;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One entry for comparisons ({@link Diffs} with a {@link DiffRequest}), as the command line and the Backups tab use
 * it: against the legacy emulator's own managed export and against the Firestore emulator's past, the counts and key
 * lists are the emulator's own answers (the kind as exported or as of the moment, and the kind now); a request the
 * command line refuses is refused here, before anything is compared.
 */
class DiffsTest {
    private static final String KIND = "Ledger";

    @TempDir
    Path dir;

    @Test
    void comparesTheEmulatorsOwnExportWithLiveData() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.EMULATOR, "diffs-export");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore);
        Map<Key, Entity> exported = RichEntities.query(datastore, KIND, null);
        Path export = EmulatorExports.export(conn, dir, null);
        damage(datastore);
        Map<Key, Entity> now = RichEntities.query(datastore, KIND, null);

        Path out = dir.resolve("keys");
        ExportDiff.Result r = new Diffs(Session.open(conn)).run(DiffRequest.of(new DiffRequest.Export(
                ManagedExport.open(export)), "", KIND).keysOut(out, DiffRequest.Resume.AFRESH), n -> { },
                Cancellation.NEVER);

        assertAsTheEmulatorSays(r, out, conn, exported, now);
    }

    @Test
    void comparesTheFirestoreEmulatorsPastWithLiveData() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "diffs-past");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore);
        Thread.sleep(50);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(50);
        damage(datastore);
        Session live = Session.open(conn);
        PointInTime moment = ReadWindow.open(live, t0.toString(), note -> { }).asOf();
        Map<Key, Entity> then = RichEntities.query(datastore, KIND, t0);
        Map<Key, Entity> now = RichEntities.query(datastore, KIND, null);

        // as the Backups tab asks: its own folder, going on from a stopped comparison there, forgotten once done
        Path out = dir.resolve("past");
        DiffRequest request = DiffRequest.of(new DiffRequest.Past(moment), "", KIND)
                .keysOut(out, DiffRequest.Resume.GO_ON_IF_STOPPED).sized(10, 2);
        long[] seen = {0};
        ExportDiff.Result stopped = new Diffs(live).run(request, n -> seen[0] = n,
                Cancellation.of(() -> seen[0] >= 30));
        assertThat(stopped.cancelled()).isTrue();
        assertThat(ExportDiff.stoppedIn(out)).isTrue();

        ExportDiff.Result r = new Diffs(live).run(request, n -> { }, Cancellation.NEVER);
        assertThat(r.resumedFrom()).isEqualTo(stopped.compared());
        assertThat(ExportDiff.stoppedIn(out)).isFalse();
        assertAsTheEmulatorSays(r, out, conn, then, now);
    }

    @Test
    void refusesWhatTheCommandLineRefusesBeforeComparing() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "diffs-refused");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore);
        Session live = Session.open(conn);
        PointInTime moment = ReadWindow.open(live, Instant.now().truncatedTo(ChronoUnit.MICROS).toString(),
                note -> { }).asOf();
        Diffs diffs = new Diffs(live);
        DiffRequest past = DiffRequest.of(new DiffRequest.Past(moment), "", KIND);

        assertThatThrownBy(() -> diffs.run(past.narrowed("SELECT * FROM " + KIND + " LIMIT 5", null), n -> { },
                Cancellation.NEVER)).isInstanceOf(KeyRangerException.class)
                .hasMessageStartingWith("The query's LIMIT 5 cannot apply");
        assertThatThrownBy(() -> diffs.run(DiffRequest.of(new DiffRequest.Past(moment), "", "Ledgr"), n -> { },
                Cancellation.NEVER)).isInstanceOf(KeyRangerException.class)
                .hasMessageStartingWith("Kind 'Ledgr' was not found");
        assertThatThrownBy(() -> diffs.run(past.keysOut(null, DiffRequest.Resume.GO_ON), n -> { },
                Cancellation.NEVER)).isInstanceOf(KeyRangerException.class)
                .hasMessageStartingWith("--resume goes on from the state in the --keys-out folder");

        ConnectionSpec legacy = SharedEmulator.freshProject(ServerType.EMULATOR, "diffs-nopast");
        Path out = dir.resolve("never");
        assertThatThrownBy(() -> new Diffs(Session.open(legacy)).run(DiffRequest.of(new DiffRequest.Past(moment), "",
                KIND).keysOut(out, DiffRequest.Resume.AFRESH), n -> { }, Cancellation.NEVER))
                .isInstanceOf(KeyRangerException.class).hasMessage(ServerType.NO_PAST);
        assertThat(Files.exists(out)).as("nothing written").isFalse();
    }

    /** The result and key lists match {@code before} (as the emulator exported or held it) against {@code now}. */
    private static void assertAsTheEmulatorSays(ExportDiff.Result r, Path out, ConnectionSpec conn,
                                                Map<Key, Entity> before, Map<Key, Entity> now) {
        Set<Key> removed = minus(before.keySet(), now.keySet());
        Set<Key> added = minus(now.keySet(), before.keySet());
        Set<Key> changed = before.keySet().stream().filter(k -> now.containsKey(k)
                && !now.get(k).getProperties().equals(before.get(k).getProperties())).collect(Collectors.toSet());
        assertThat(removed).hasSize(10);
        assertThat(changed).hasSize(10);
        assertThat(added).hasSize(5);
        assertThat(r.cancelled()).isFalse();
        assertThat(r.compared()).isEqualTo(before.size());
        assertThat(r.same()).isEqualTo(before.size() - removed.size() - changed.size());
        assertThat(r.changed()).isEqualTo(changed.size());
        assertThat(r.removed()).isEqualTo(removed.size());
        assertThat(r.added()).isEqualTo(added.size());
        assertThat(KeysFile.read(out.resolve("removed.keys"), conn.projectId(), "")).isEqualTo(removed);
        assertThat(KeysFile.read(out.resolve("changed.keys"), conn.projectId(), "")).isEqualTo(changed);
        assertThat(KeysFile.read(out.resolve("added.keys"), conn.projectId(), "")).isEqualTo(added);
    }

    /** 100 entities, ids and names. */
    private static void seed(Datastore datastore) {
        KeyFactory keys = datastore.newKeyFactory().setKind(KIND);
        List<Entity> seed = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            seed.add(Entity.newBuilder(i % 2 == 0 ? keys.newKey(i) : keys.newKey("n" + i)).set("n", i).build());
        }
        SharedEmulator.putAll(datastore, seed);
    }

    /** Deletes 10, changes 10 and adds 5. */
    private static void damage(Datastore datastore) {
        List<Entity> all = new ArrayList<>(RichEntities.query(datastore, KIND, null).values());
        List<Key> delete = new ArrayList<>();
        List<Entity> change = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (i % 10 == 3) {
                delete.add(all.get(i).getKey());
            } else if (i % 10 == 6) {
                change.add(Entity.newBuilder(all.get(i)).set("n", -all.get(i).getLong("n")).build());
            }
        }
        datastore.delete(delete.toArray(new Key[0]));
        SharedEmulator.putAll(datastore, change);
        KeyFactory keys = datastore.newKeyFactory().setKind(KIND);
        List<Entity> add = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            add.add(Entity.newBuilder(i % 2 == 0 ? keys.newKey(10_000 + i) : keys.newKey("new" + i)).set("n", i)
                    .build());
        }
        SharedEmulator.putAll(datastore, add);
    }


    private static Set<Key> minus(Set<Key> a, Set<Key> b) {
        return a.stream().filter(k -> !b.contains(k)).collect(Collectors.toSet());
    }
}
