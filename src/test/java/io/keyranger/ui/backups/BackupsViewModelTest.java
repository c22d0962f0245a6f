package io.keyranger.ui.backups;

import static io.keyranger.support.Fx.on;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.SideBySide;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.query.Gql;
import io.keyranger.job.RestoreMode;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.HeldRead;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.UndoKept;
import io.keyranger.support.WindowlessApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.beans.value.ObservableValue;
import org.junit.jupiter.api.Test;

/**
 * The Backups tab's view model on the demo's data, no window: the emulator's own managed export of Account is opened,
 * browsed page by page, queried and looked up on the client; after 5 accounts are deleted and 3 changed, the
 * comparison finds exactly them (checked against the emulator) and shows one side by side, and Restore… hands the Run
 * tab a skip-changed restore. What Compare and Restore… act on is only ever the export the path box names.
 * ({@code ui.BackupsTabTest} runs the restore from the window.)
 */
class BackupsViewModelTest {
    private static final int ACCOUNTS = 80;


    private static Path export(ConnectionSpec conn, String folder) throws Exception {
        return EmulatorExports.export(conn, Files.createTempDirectory(folder), "{\"kinds\": [\"Account\"]}");
    }

    /** Opens the export at {@code path} as the Open button does, and waits for its Account's first page. */
    private static void open(BackupsViewModel backups, Path path) {
        on(() -> {
            backups.locationProperty().set(path.toString());
            backups.open();
        });
        Fx.waitUntil(30, () -> backups.kinds().stream().anyMatch(k -> k.kind().equals("Account")));
        Fx.waitUntil(30, () -> !backups.busyProperty().get() && !backups.pages().entities().isEmpty());
    }

    private static boolean can(BackupsViewModel backups, String what) {
        return Fx.get(() -> switch (what) {
            case "query" -> backups.canQuery().get();
            case "compare" -> backups.canCompare().get();
            case "restore" -> backups.canRestore().get();
            default -> throw new IllegalArgumentException(what);
        });
    }

    private static String text(ObservableValue<String> value) {
        return Fx.get(value::getValue);
    }

    @Test
    void anExportIsBrowsedComparedWithLiveDataAndHandedToTheRunTabToRestore() throws Exception {
        ConnectionSpec conn = WindowlessApp.demoData("backups-vm", ACCOUNTS);
        Datastore datastore = SharedEmulator.connect(conn);
        Map<Key, Entity> before = accounts(datastore);
        Path export = export(conn, "keyranger-backups");
        String gql = "SELECT * FROM Account WHERE tier = 'pro' AND balance > 5000";
        Set<Key> expected = new HashSet<>();
        datastore.run(Query.newGqlQueryBuilder(Query.ResultType.ENTITY, gql).setAllowLiteral(true).build())
                .forEachRemaining(e -> expected.add(((Entity) e).getKey()));
        try (WindowlessApp app = WindowlessApp.connectedTo(conn)) {
            BackupsViewModel backups = app.model().backups();
            DiffModel diff = backups.diff();
            open(backups, export);
            assertThat(Fx.get(() -> backups.kinds().stream().filter(k -> k.kind().equals("Account")).findFirst()
                    .orElseThrow().count())).isEqualTo(ACCOUNTS);
            assertThat(Fx.get(() -> backups.selectedKindProperty().get().kind())).isEqualTo("Account");
            Fx.waitUntil(30, () -> backups.pages().entities().size() == 50 && backups.pages().entities().stream()
                    .allMatch(e -> e.getKey().getNamespace().isEmpty()));
            assertThat(text(backups.summaryProperty())).contains("no index");
            assertThat(text(backups.pages().pageInfoProperty())).contains("Page 1: 50 entities").contains("no index");
            on(() -> backups.pages().nextPage());
            Fx.waitUntil(30, () -> backups.pages().entities().size() == 30);
            Set<Key> paged = new HashSet<>(keys(backups));
            on(() -> backups.pages().previousPage());
            Fx.waitUntil(30, () -> backups.pages().entities().size() == 50);
            paged.addAll(keys(backups));
            assertThat(paged).isEqualTo(before.keySet());

            on(() -> {
                backups.pages().queryProperty().set(gql);
                backups.pages().runQuery();
            });
            Fx.waitUntil(30, () -> backups.pages().pageInfoProperty().get().contains("Page 1: " + expected.size() + " entit"));
            assertThat(new HashSet<>(keys(backups))).isEqualTo(expected);

            List<Key> all = new ArrayList<>(before.keySet());
            List<Key> deleted = all.subList(0, 5);
            List<Key> changed = all.subList(5, 8);
            on(() -> {
                backups.pages().keyProperty().set(Gql.keyLiteral(deleted.get(0)));
                backups.pages().lookUp();
            });
            Fx.waitUntil(30, () -> backups.pages().entities().size() == 1 && backups.pages().entities().get(0).getKey()
                    .equals(deleted.get(0)));

            datastore.delete(deleted.toArray(new Key[0]));
            Map<Key, Entity> edited = new HashMap<>();
            for (Key key : changed) {
                edited.put(key, Entity.newBuilder(before.get(key)).set("balance", -1L).build());
            }
            datastore.put(edited.values().toArray(new Entity[0]));

            assertThat(can(backups, "compare")).isTrue();
            on(backups::compare);
            Fx.waitUntil(60, () -> diff.summaryProperty().get().contains("removed"));
            assertThat(text(diff.summaryProperty())).contains("72 the same, 3 changed, 5 removed and 0 added");
            assertThat(text(backups.restoring().restorePreviewProperty())).contains("Restore (skip-changed) would bring back 5 "
                    + "removed and leave 3 changed since");
            assertThat(Fx.get(() -> List.copyOf(diff.examples()))).extracting(ExportDiff.Example::key)
                    .containsExactlyInAnyOrderElementsOf(all.subList(0, 8));
            ExportDiff.Example one = Fx.get(() -> diff.examples().stream().filter(x -> x.now() != null).findFirst()
                    .orElseThrow());
            on(() -> diff.selectedProperty().set(one));
            List<SideBySide.Row> sides = Fx.get(() -> List.copyOf(diff.rows()));
            SideBySide.Row balance = sides.stream().filter(r -> r.property().equals("balance")).findFirst()
                    .orElseThrow();
            assertThat(balance.differs()).isTrue();
            assertThat(balance.exported()).isEqualTo(String.valueOf(before.get(one.key()).getLong("balance")));
            assertThat(balance.live()).isEqualTo("-1");
            assertThat(sides.stream().filter(r -> !r.property().equals("balance"))).noneMatch(SideBySide.Row::differs);
            wentOnWhereAStoppedComparisonStopped(app, conn, export, new HashSet<>(deleted),
                    new HashSet<>(all.subList(0, 8)));

            // Restore… asks before it writes (on an emulator the app's confirmation always agrees), then hands the
            // Run tab a skip-changed restore of the kind; one not agreed to hands it nothing
            List<RestoreModel.RestoreRequest> requests = new CopyOnWriteArrayList<>();
            List<String> asked = new CopyOnWriteArrayList<>();
            on(() -> backups.restoring().setRestorer(request -> {
                requests.add(request);
                app.model().prepareRestore(request);
            }));
            assertThat(can(backups, "restore")).isTrue();
            on(() -> backups.restore((spec, what) -> {
                asked.add(spec.projectId() + ": " + what);
                return false;
            }, whole -> true));
            assertThat(requests).isEmpty();
            // with no row selected it asks first whether to restore the whole kind: no, and nothing is asked or handed
            List<String> questions = new CopyOnWriteArrayList<>();
            on(() -> backups.restore((spec, what) -> asked.add("never"), q -> {
                questions.add(q);
                return false;
            }));
            assertThat(questions).singleElement().asString().startsWith("No row of the comparison is selected, so "
                    + "this restores the whole of Account from the export (5 removed, 3 changed and 0 added since)");
            assertThat(requests).isEmpty();
            on(() -> backups.restore((spec, what) -> asked.add(spec.projectId() + ": " + what), whole -> true));
            assertThat(asked).containsOnly(conn.projectId() + ": restore Account from the export (skip-changed)");
            assertThat(requests).singleElement().satisfies(r -> {
                assertThat(r.kind()).isEqualTo("Account");
                assertThat(r.namespace()).isEmpty();
                assertThat(r.job().mapper().template()).isEqualTo("import");
            });
            assertThat(Fx.get(() -> app.model().run().form().mapperJsonProperty().get()))
                    .contains("\"mode\":\"skip-changed\"");
            assertThat(app.errors()).isEmpty();
        }
    }

    /**
     * Compare shows its progress on the tab and in the status bar (1,000 of 1,100 compared, with the last page's
     * lookup held), says at once that it was cancelled, and its held lookup's thread ends once the server answers;
     * Compare again goes on from the 1,000 it kept and finds exactly the 5 removed.
     */
    @Test
    void aComparisonShowsItsProgressAndCancelKeepsWhatItCompared() throws Exception {
        ConnectionSpec conn = WindowlessApp.demoData("backups-progress", 1_100);
        Datastore datastore = SharedEmulator.connect(conn);
        Path export = export(conn, "keyranger-backups-progress");
        Set<Key> deleted = new HashSet<>(new ArrayList<>(accounts(datastore).keySet()).subList(0, 5));
        datastore.delete(deleted.toArray(new Key[0]));
        // the pages are 500, 500 and 100 entities: the last page's lookup is held
        HeldRead gate = HeldRead.on("fetch").when(args -> args[0] instanceof Key[] keys && keys.length < 500);
        try (WindowlessApp app = WindowlessApp.connectedTo(conn)) {
            BackupsViewModel backups = app.model().backups();
            DiffModel diff = backups.diff();
            open(backups, export);
            Session live = Fx.get(() -> app.model().sessionProperty().get());
            on(() -> {
                backups.sessionProperty().unbind();
                backups.sessionProperty().set(live.wrap(gate::wrap));
            });
            // the browser's count of each kind takes the status bar while it runs: wait for it
            Fx.waitUntil(60, () -> !app.model().kinds().isEmpty() && app.model().kinds().stream()
                    .allMatch(k -> k.countProperty().get() != null) && !app.model().status().busyProperty().get());
            // a whole comparison first: its preview goes as soon as Compare runs again, and stays gone if cancelled
            on(backups::compare);
            Fx.waitUntil(60, () -> diff.summaryProperty().get().contains("5 removed"));
            assertThat(text(backups.restoring().restorePreviewProperty())).contains("would bring back 5 removed");
            gate.arm();
            on(backups::compare);
            assertThat(text(backups.restoring().restorePreviewProperty())).as("the comparison before is gone")
                    .isEmpty();
            String progress = "Comparing Account with " + live.describe() + ": 1,000 of 1,100 compared…";
            Fx.waitUntil(60, () -> gate.holding() && diff.summaryProperty().get().equals(progress));
            assertThat(text(app.model().status().messageProperty())).isEqualTo(progress);
            assertThat(Fx.get(() -> app.model().status().busyProperty().get())).isTrue();
            assertThat(Fx.get(() -> app.model().status().progressProperty().get())).isCloseTo(1000 / 1100.0,
                    within(1e-9));
            assertThat(can(backups, "compare")).isFalse();

            on(diff::cancel);
            Fx.waitUntil(10, () -> !diff.comparingProperty().get());
            assertThat(gate.holding()).as("the screen says cancelled while the lookup is still held").isTrue();
            assertThat(text(diff.summaryProperty())).isEqualTo("Comparison cancelled: Compare again to go on where "
                    + "it stopped.");
            assertThat(text(backups.restoring().restorePreviewProperty())).isEmpty();
            assertThat(Fx.get(() -> List.copyOf(diff.examples()))).isEmpty();
            assertThat(text(app.model().status().messageProperty())).isEqualTo("Comparing Account with live data: "
                    + "cancelled");
            gate.release();
            Fx.waitUntil(30, () -> !gate.holder().isAlive());

            on(backups::compare);
            Fx.waitUntil(60, () -> diff.summaryProperty().get().contains("went on from"));
            Path folder = DiffModel.folderOf(app.config().resolve("comparisons"), conn,
                    Path.of(ManagedExport.open(export).metadata()), "", "Account");
            assertThat(text(diff.summaryProperty())).contains("1,095 the same, 0 changed, 5 removed and 0 added")
                    .contains("went on from 1,000 compared before it stopped");
            assertThat(KeysFile.read(folder.resolve("removed.keys"), conn.projectId(), "")).isEqualTo(deleted);
            assertThat(ExportDiff.stoppedIn(folder)).isFalse();
            assertThat(app.errors()).isEmpty();
        }
    }

    /**
     * A whole-database export written by the emulator's own {@code :export} after a job ran carries KeyRanger's
     * bookkeeping and undo kinds: they are listed after the user's kinds, and the summary says how many entities
     * they hold (as the export's own counts say).
     */
    @Test
    void keyRangersOwnKindsAreListedApartAfterTheUsersKinds() throws Exception {
        ConnectionSpec conn = WindowlessApp.demoData("backups-own", 40);
        InProcessCli cli = new InProcessCli(Files.createTempDirectory("keyranger-backups-own"), conn);
        InProcessCli.Result job = cli.run("run", "--kind", "Account", "--mapper", cli.mapper("{\"template\": "
                + "\"increment\", \"property\": \"balance\", \"amount\": 1}").toString(), "--job-id", "credit");
        assertThat(job.exitCode()).as(job.err()).isZero();
        Path export = EmulatorExports.export(conn, Files.createTempDirectory("keyranger-backups-own"), null);
        try (WindowlessApp app = WindowlessApp.connectedTo(conn)) {
            BackupsViewModel backups = app.model().backups();
            open(backups, export);
            List<BackupsViewModel.KindRow> rows = Fx.get(() -> List.copyOf(backups.kinds()));
            List<BackupsViewModel.KindRow> own = rows.stream().filter(BackupsViewModel.KindRow::keyRangers).toList();
            assertThat(own).extracting(BackupsViewModel.KindRow::kind).contains("_KeyRangerJob", "_KeyRangerUndo.credit")
                    .allMatch(k -> k.startsWith("_KeyRanger"));
            assertThat(rows.subList(0, rows.size() - own.size())).extracting(BackupsViewModel.KindRow::kind)
                    .contains("Account").noneMatch(k -> k.startsWith("_KeyRanger"));
            assertThat(text(backups.summaryProperty())).contains(String.format("; %,d of them in %d kinds of "
                    + "KeyRanger's own bookkeeping and undo records, listed after yours",
                    own.stream().mapToLong(BackupsViewModel.KindRow::count).sum(), own.size()));
            // the job's undo records as the database holds them (a record holds a commit's before-images), each of
            // the 40 entities' images once
            List<Entity> records = UndoKept.records(SharedEmulator.connect(conn), "credit");
            assertThat(UndoKept.targets(SharedEmulator.connect(conn), "credit")).hasSize(40).doesNotHaveDuplicates();
            assertThat(own.stream().filter(k -> k.kind().equals("_KeyRangerUndo.credit")).findFirst().orElseThrow()
                    .count()).isEqualTo(records.size());
        }
    }

    /**
     * A reserved {@code __*__} kind an export may hold (Google's statistics) is the server's, not KeyRanger's: it is
     * not listed under KeyRanger's own kinds (the rule export-info uses).
     */
    @Test
    void aReservedKindIsNotCountedAsKeyRangersOwn() {
        assertThat(new BackupsViewModel.KindRow("", "__Stat_Kind__", 3).keyRangers()).isFalse();
        assertThat(new BackupsViewModel.KindRow("", "_KeyRangerJob", 3).keyRangers()).isTrue();
    }

    /**
     * A comparison stopped after 30 entities (as a cancel or a closed app leaves it) in the folder the tab keeps for
     * this kind; Compare goes on from there and finds the same as a whole comparison, with the same key lists.
     */
    private static void wentOnWhereAStoppedComparisonStopped(WindowlessApp app, ConnectionSpec spec, Path export,
                                                             Set<Key> deleted, Set<Key> differing) throws Exception {
        BackupsViewModel backups = app.model().backups();
        DiffModel diff = backups.diff();
        Path comparisons = app.config().resolve("comparisons");
        List<Path> folders;
        try (var listed = Files.list(comparisons)) {
            folders = listed.toList();
        }
        assertThat(folders).hasSize(1); // the whole comparison above made it, and forgot its state when done
        Path folder = folders.get(0);
        assertThat(ExportDiff.stoppedIn(folder)).isFalse();
        assertThat(KeysFile.read(folder.resolve("removed.keys"), spec.projectId(), "")).isEqualTo(deleted);
        assertThat(folder).isEqualTo(DiffModel.folderOf(comparisons, spec,
                Path.of(ManagedExport.open(export).metadata()), "", "Account"));
        long[] seen = {0};
        ExportDiff.Result stopped = ExportDiff.of(Session.open(spec), ManagedExport.open(export), "", "Account", null,
                null).pageSize(10).parallel(1).writeKeys(folder).run(true, n -> seen[0] = n,
                Cancellation.of(() -> seen[0] >= 30));
        assertThat(stopped.cancelled()).isTrue();
        assertThat(stopped.compared()).isEqualTo(30);

        on(backups::compare);
        Fx.waitUntil(60, () -> diff.summaryProperty().get().contains("went on from"));
        assertThat(text(diff.summaryProperty())).contains("72 the same, 3 changed, 5 removed and 0 added")
                .contains("went on from 30 compared before it stopped").contains(folder.toString());
        assertThat(Fx.get(() -> List.copyOf(diff.examples()))).extracting(ExportDiff.Example::key)
                .isSubsetOf(differing);
        assertThat(ExportDiff.stoppedIn(folder)).isFalse();
        assertThat(KeysFile.read(folder.resolve("removed.keys"), spec.projectId(), "")).isEqualTo(deleted);
        assertThat(KeysFile.read(folder.resolve("changed.keys"), spec.projectId(), "")).hasSize(3)
                .doesNotContainAnyElementsOf(deleted).isSubsetOf(differing);
    }

    /**
     * After an export was opened and compared, a corrupt one that cannot be opened leaves the first open as it was
     * (issue 63: a failure never closes what was open), and Compare and Restore… off while the path box names the
     * corrupt one; a path typed but not opened turns them off until it is opened or put back. ({@code
     * ui.BackupsTabTest} checks the window's error dialog.)
     */
    @Test
    void aFailedOpenLeavesTheExportShownBeforeAndActsOnNothing() throws Exception {
        ConnectionSpec conn = WindowlessApp.demoData("backups-vm-corrupt", ACCOUNTS);
        Path good = export(conn, "keyranger-backups-good");
        Path corrupt = Files.createTempDirectory("keyranger-backups-corrupt");
        Files.write(corrupt.resolve("2020-01-01T00_00_00_000.overall_export_metadata"),
                new byte[] {0x0a, (byte) 0xff, (byte) 0xff, 0x01, 0x02, 0x7f, 0x13, 0x00});
        try (WindowlessApp app = WindowlessApp.connectedTo(conn)) {
            BackupsViewModel backups = app.model().backups();
            DiffModel diff = backups.diff();
            open(backups, good);
            on(backups::compare);
            Fx.waitUntil(60, () -> diff.summaryProperty().get().contains(ACCOUNTS + " the same"));
            String shown = text(backups.summaryProperty());
            List<BackupsViewModel.KindRow> kinds = Fx.get(() -> List.copyOf(backups.kinds()));

            // a path typed but not opened: nothing acts on the export below it
            on(() -> backups.locationProperty().set(corrupt.toString()));
            assertThat(can(backups, "compare")).isFalse();
            assertThat(can(backups, "restore")).isFalse();
            assertThat(can(backups, "query")).isFalse();
            assertThat(text(backups.locationNotice())).contains("names another export").contains(good.toString());
            on(() -> backups.locationProperty().set(good.toString()));
            assertThat(can(backups, "compare")).isTrue();
            assertThat(can(backups, "restore")).isTrue();

            on(() -> {
                backups.locationProperty().set(corrupt.toString());
                backups.open();
            });
            Fx.waitUntil(30, () -> !app.errors().isEmpty());
            assertThat(app.errors()).hasSize(1);
            assertThat(text(backups.locationProperty())).isEqualTo(corrupt.toString());
            assertThat(text(backups.summaryProperty())).isEqualTo("Could not open " + corrupt + "; still shown: "
                    + shown);
            assertThat(Fx.get(() -> List.copyOf(backups.kinds()))).isEqualTo(kinds);
            assertThat(can(backups, "compare")).isFalse();
            assertThat(can(backups, "restore")).isFalse();
            assertThat(can(backups, "query")).isFalse();
            assertThat(text(backups.locationNotice())).contains("names another export").contains(good.toString());
            // off: nothing is asked, nothing is handed to the Run tab
            AtomicBoolean handed = new AtomicBoolean();
            AtomicBoolean asked = new AtomicBoolean();
            on(() -> {
                backups.restoring().setRestorer(request -> handed.set(true));
                backups.restore((spec, what) -> {
                    asked.set(true);
                    return true;
                }, whole -> true);
            });
            assertThat(asked).isFalse();
            assertThat(handed).isFalse();
        }
    }

    private static List<Key> keys(BackupsViewModel backups) {
        return Fx.get(() -> backups.pages().entities().stream().map(Entity::getKey).toList());
    }

    /** The preview counts in words: one entity, several entities. */
    @Test
    void thePreviewSaysOneEntityAndSeveral() {
        assertThat(RestoreModel.preview(new RestoreModel.Counts(1, 0, 1, 2, ""), RestoreMode.SKIP_CHANGED, false))
                .contains("would bring back 1 removed").contains("; 1 entity added since stays.");
        assertThat(RestoreModel.preview(new RestoreModel.Counts(1, 0, 1, 2, ""), RestoreMode.OVERWRITE, true))
                .contains("; 1 entity added since is removed.");
        assertThat(RestoreModel.preview(new RestoreModel.Counts(0, 0, 2, 2, ""), RestoreMode.SKIP_CHANGED, false))
                .contains("; 2 entities added since stay.");
    }

    private static Map<Key, Entity> accounts(Datastore datastore) {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build()).forEachRemaining(e -> all.put(e.getKey(),
                e));
        return all;
    }
}
