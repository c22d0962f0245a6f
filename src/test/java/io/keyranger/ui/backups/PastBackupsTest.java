package io.keyranger.ui.backups;

import static io.keyranger.support.Fx.on;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import io.keyranger.backup.ExportDiff;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobReport;
import io.keyranger.job.PastRestore;
import io.keyranger.job.RestoreMode;
import io.keyranger.keys.KeyFormat;
import io.keyranger.support.DamagedKind;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.WindowlessApp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The app compares the past with live: the Backups tab opens the database as of a moment before some entities were
 * changed, deleted and added, as it opens an export (its kind counted as it was then), compares the kind with live
 * data (exactly the damaged keys, checked against the emulator's own reads at that moment and now) and hands the Run
 * tab a restore from that moment, which brings the deleted entities back as they were and leaves the rest. On the
 * legacy emulator the past is refused in words.
 */
class PastBackupsTest {

    @Test
    void theAppComparesThePastWithLiveAndRestoresFromIt() throws Exception {
        DamagedKind damaged = DamagedKind.create("past-backups");
        Map<Key, Entity> then = byKey(damaged.atBefore());
        Map<Key, Entity> now = byKey(damaged.now());
        Set<Key> removed = keys(then, k -> !now.containsKey(k));
        Set<Key> added = keys(now, k -> !then.containsKey(k));
        Set<Key> changed = keys(then, k -> now.containsKey(k) && !now.get(k).equals(then.get(k)));
        assertThat(removed).hasSize(5);
        assertThat(added).hasSize(10);
        assertThat(changed).hasSize(5);
        try (WindowlessApp app = WindowlessApp.connectedTo(damaged.spec(), DamagedKind.KIND)) {
            BackupsViewModel backups = app.model().backups();
            DiffModel diff = backups.diff();
            on(() -> {
                backups.asOfProperty().set(damaged.before().toString());
                backups.openPast();
            });
            Fx.waitUntil(60, () -> !backups.busyProperty().get() && !backups.kinds().isEmpty());
            assertThat(Fx.get(() -> List.copyOf(backups.kinds()))).as("the kind counted as it was")
                    .containsExactly(new BackupsViewModel.KindRow("", DamagedKind.KIND, DamagedKind.SEEDED));
            assertThat(Fx.get(() -> backups.summaryProperty().get())).startsWith("The database as of "
                    + damaged.before() + ": " + DamagedKind.SEEDED + " entities in 1 kind.");
            assertThat(Fx.get(() -> backups.canQuery().get())).as("the past pages on the Entities tab").isFalse();
            assertThat(Fx.get(() -> backups.canCompare().get())).isTrue();

            on(backups::compare);
            Fx.waitUntil(60, () -> diff.summaryProperty().get().contains("removed"));
            assertThat(Fx.get(() -> diff.summaryProperty().get())).contains(String.format(
                    "%d the same, 5 changed, 5 removed and 10 added since %s", DamagedKind.SEEDED - 10,
                    damaged.before()));
            List<ExportDiff.Example> examples = Fx.get(() -> List.copyOf(diff.examples()));
            assertThat(keysOf(examples, x -> x.before() == null)).isEqualTo(added);
            assertThat(keysOf(examples, x -> x.now() == null)).isEqualTo(removed);
            assertThat(keysOf(examples, x -> x.before() != null && x.now() != null)).isEqualTo(changed);
            examples.forEach(x -> {
                assertThat(x.before()).as("as it was: %s", x.key()).isEqualTo(then.get(x.key()));
                assertThat(x.now()).as("live: %s", x.key()).isEqualTo(now.get(x.key()));
            });
            assertThat(Fx.get(() -> backups.restoring().restorePreviewProperty().get()))
                    .contains("Restore (skip-changed) would bring back 5 removed and leave 5 changed since");

            List<String> asked = new CopyOnWriteArrayList<>();
            on(() -> backups.restoring().setRestorer(app.model()::prepareRestore));
            on(() -> backups.restore((spec, what) -> asked.add(what), whole -> true));
            assertThat(asked).containsExactly("restore Item from the database as of " + damaged.before()
                    + " (skip-changed)");
            Fx.waitUntil(30, () -> app.model().run().form().mapperJsonProperty().get().contains("\"mode\":\"skip-changed\"")
                    && app.model().run().targetProperty().get() != null);
            assertThat(Fx.get(() -> app.model().run().targetProperty().get().session().past()))
                    .as("the restore writes live data").isFalse();
            on(() -> app.model().run().start());
            Fx.waitUntil(120, () -> app.model().run().status().summaryProperty().get().contains(" done: "));
            Map<Key, Entity> wanted = new HashMap<>(now);
            removed.forEach(k -> wanted.put(k, damaged.lookupAtBefore(k)));
            assertThat(byKey(damaged.now())).as("the deleted back as they were; changed and added left")
                    .isEqualTo(wanted);
            assertThat(app.errors()).isEmpty();
        }
    }

    /**
     * Undo a window of damage from the app ({@code restore --as-of T --until T2 --remove-added}): after T2 the
     * application writes two entities again (one changed in the window, one deleted in it) and deletes one added in
     * it. With until given the mode is off; the restore brings the deleted back, gives the changed their old values
     * and removes the added, entity by entity as the emulator's own lookups at T answer, leaves the two later writes
     * as they are and the job's report on the Run tab names them (the one added and deleted again is as it was at T:
     * nothing to do).
     */
    @Test
    void theAppUndoesAWindowOfDamageLeavingLaterWrites() throws Exception {
        DamagedKind damaged = DamagedKind.create("past-undo");
        Thread.sleep(20);
        Instant until = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(20);
        Datastore datastore = damaged.datastore();
        KeyFactory keys = datastore.newKeyFactory().setKind(DamagedKind.KIND);
        Key changedAgain = keys.newKey(1);
        Key deletedThenBack = keys.newKey(6);
        Key addedThenGone = keys.newKey(DamagedKind.SEEDED + 1);
        datastore.put(Entity.newBuilder(changedAgain).set("n", 100).set("state", "later").build());
        datastore.put(Entity.newBuilder(deletedThenBack).set("n", 600).set("state", "later").build());
        datastore.delete(addedThenGone);
        Set<Key> later = Set.of(changedAgain, deletedThenBack);
        Map<Key, Entity> beforeRestore = byKey(damaged.now());
        Set<Key> all = new HashSet<>(beforeRestore.keySet());
        all.addAll(byKey(damaged.atBefore()).keySet());
        all.add(addedThenGone);
        try (WindowlessApp app = WindowlessApp.connectedTo(damaged.spec(), DamagedKind.KIND)) {
            BackupsViewModel backups = app.model().backups();
            RestoreModel restoring = backups.restoring();
            on(() -> {
                backups.asOfProperty().set(damaged.before().toString());
                backups.openPast();
            });
            Fx.waitUntil(60, () -> !backups.busyProperty().get() && !backups.kinds().isEmpty());
            assertThat(Fx.get(() -> restoring.undoesWindow().get())).isFalse();
            on(() -> {
                restoring.untilProperty().set(until.toString());
                restoring.removeAddedProperty().set(true);
            });
            assertThat(Fx.get(() -> restoring.undoesWindow().get())).as("with until, the mode is off").isTrue();

            List<String> asked = new CopyOnWriteArrayList<>();
            on(() -> restoring.setRestorer(app.model()::prepareRestore));
            on(() -> backups.restore((spec, what) -> asked.add(what), whole -> true));
            Fx.waitUntil(30, () -> app.model().run().form().mapperJsonProperty().get().contains("\"until\"")
                    && app.model().run().targetProperty().get() != null);
            assertThat(asked).containsExactly("restore Item from the database as of " + damaged.before()
                    + ", undoing what was written until " + until + " (entities added in the window removed)");
            assertThat(Fx.get(() -> app.model().run().form().mapperJsonProperty().get()))
                    .contains("\"removeAdded\":true");
            on(() -> app.model().run().start());
            Fx.waitUntil(120, () -> app.model().run().status().summaryProperty().get().contains(" done: "));

            Map<Key, Entity> after = byKey(damaged.now());
            for (Key key : all) {
                Entity expected = later.contains(key) ? beforeRestore.get(key) : damaged.lookupAtBefore(key);
                assertThat(after.get(key)).as("%s", key).isEqualTo(expected);
            }
            Map<String, Long> totals = Fx.get(() -> app.model().run().status().totalsProperty().get());
            assertThat(totals).containsEntry(PastRestore.BROUGHT_BACK, 4L).containsEntry(PastRestore.REVERTED, 4L)
                    .containsEntry(PastRestore.ADDED_REMOVED, 9L)
                    .containsEntry(PastRestore.already(), DamagedKind.SEEDED - 10 + 1L)
                    .containsEntry(JobReport.SKIPPED_PREFIX + PastRestore.WRITTEN_AFTER, 2L);
            String report = Fx.get(() -> app.model().run().status().problemsProperty().get());
            assertThat(report).contains("2 × " + PastRestore.WRITTEN_AFTER);
            later.forEach(k -> assertThat(report).as("names %s", k).contains(KeyFormat.format(k)));
            assertThat(app.errors()).isEmpty();
        }
    }

    /** Until must come after the moment on show, and be one the server keeps: said in words, nothing handed over. */
    @Test
    void untilBeforeTheMomentOnShowIsRefused() throws Exception {
        DamagedKind damaged = DamagedKind.create("past-undo-refused");
        try (WindowlessApp app = WindowlessApp.connectedTo(damaged.spec(), DamagedKind.KIND)) {
            BackupsViewModel backups = app.model().backups();
            on(() -> {
                backups.asOfProperty().set(damaged.before().toString());
                backups.openPast();
            });
            Fx.waitUntil(60, () -> !backups.busyProperty().get() && !backups.kinds().isEmpty());
            List<RestoreModel.RestoreRequest> handed = new CopyOnWriteArrayList<>();
            on(() -> {
                backups.restoring().setRestorer(handed::add);
                backups.restoring().untilProperty().set(damaged.before().minusSeconds(1).toString());
                backups.restore((spec, what) -> true, whole -> true);
            });
            Fx.waitUntil(30, () -> !app.errors().isEmpty());
            assertThat(app.errors()).singleElement().asString().startsWith("Until ").contains("must be after "
                    + damaged.before());
            on(() -> {
                backups.restoring().untilProperty().set("yesterday");
                backups.restore((spec, what) -> true, whole -> true);
            });
            Fx.waitUntil(30, () -> app.errors().size() == 2);
            assertThat(app.errors().get(1)).contains("'yesterday' is not a time");
            assertThat(handed).isEmpty();

            // a moment that cannot be opened is said, and the one on show stays open
            Session shown = Fx.get(() -> backups.pastProperty().get());
            on(() -> {
                backups.asOfProperty().set("yesterday");
                backups.openPast();
            });
            Fx.waitUntil(30, () -> app.errors().size() == 3 && !backups.busyProperty().get());
            assertThat(app.errors().get(2)).contains("'yesterday' is not a time");
            assertThat(Fx.get(() -> backups.pastProperty().get())).isSameAs(shown);
            assertThat(Fx.get(() -> List.copyOf(backups.kinds()))).isNotEmpty();
            assertThat(Fx.get(() -> backups.summaryProperty().get())).startsWith("Could not open the database as of "
                    + "yesterday; still shown: The database as of " + damaged.before());
            on(() -> backups.asOfProperty().set(damaged.before().toString()));
            assertThat(Fx.get(() -> backups.canCompare().get())).as("the time box names it again").isTrue();
        }
    }

    /**
     * "Also remove entities added" ticked while it applied (overwrite, or until given) and then no longer applying (the
     * mode switched to skip-changed, or until cleared): the box is off, so the confirmation claims no removal and the
     * job handed over removes nothing; nothing escapes the event handler.
     */
    @Test
    void removeAddedTickedThenNotApplyingRemovesNothing() throws Exception {
        DamagedKind damaged = DamagedKind.create("past-remove-off");
        try (WindowlessApp app = WindowlessApp.connectedTo(damaged.spec(), DamagedKind.KIND)) {
            BackupsViewModel backups = app.model().backups();
            RestoreModel restoring = backups.restoring();
            on(() -> {
                backups.asOfProperty().set(damaged.before().toString());
                backups.openPast();
            });
            Fx.waitUntil(60, () -> !backups.busyProperty().get() && !backups.kinds().isEmpty());
            List<String> asked = new CopyOnWriteArrayList<>();
            List<RestoreModel.RestoreRequest> handed = new CopyOnWriteArrayList<>();
            on(() -> {
                restoring.setRestorer(handed::add);
                restoring.modeProperty().set(RestoreMode.OVERWRITE);
                restoring.removeAddedProperty().set(true);
                restoring.modeProperty().set(RestoreMode.SKIP_CHANGED);
                backups.restore((spec, what) -> asked.add(what), whole -> true);
                restoring.untilProperty().set("-1s");
                restoring.untilProperty().set("");
                backups.restore((spec, what) -> asked.add(what), whole -> true);
            });
            String what = "restore Item from the database as of " + damaged.before() + " (skip-changed)";
            assertThat(asked).containsExactly(what, what);
            assertThat(handed).hasSize(2).allSatisfy(r -> assertThat(r.job().mapper().json().has("removeAdded"))
                    .as("removes nothing").isFalse());
            assertThat(app.errors()).isEmpty();
        }
    }

    @Test
    void theLegacyEmulatorKeepsNoPastToOpen() {
        try (WindowlessApp app = WindowlessApp.connectedTo(SharedEmulator.freshProject(ServerType.EMULATOR,
                "past-backups-legacy"))) {
            BackupsViewModel backups = app.model().backups();
            on(() -> {
                backups.asOfProperty().set("-1m");
                backups.openPast();
            });
            Fx.waitUntil(30, () -> !backups.busyProperty().get() && !app.errors().isEmpty());
            assertThat(app.errors()).containsExactly(ServerType.NO_PAST);
            assertThat(Fx.get(() -> backups.canOpenPast().get())).isFalse();
            assertThat(Fx.get(() -> backups.pastOff().get())).isEqualTo(ServerType.NO_PAST);
            assertThat(Fx.get(() -> backups.pastProperty().get())).isNull();
            assertThat(Fx.get(() -> backups.canCompare().get())).isFalse();
        }
    }

    private static Map<Key, Entity> byKey(List<Entity> entities) {
        return entities.stream().collect(Collectors.toMap(Entity::getKey, e -> e));
    }

    private static Set<Key> keys(Map<Key, Entity> entities, Predicate<Key> which) {
        return entities.keySet().stream().filter(which).collect(Collectors.toSet());
    }

    private static Set<Key> keysOf(List<ExportDiff.Example> examples, Predicate<ExportDiff.Example> which) {
        return examples.stream().filter(which).map(ExportDiff.Example::key).collect(Collectors.toSet());
    }
}
