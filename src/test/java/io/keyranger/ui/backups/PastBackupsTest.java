package io.keyranger.ui.backups;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.backup.ExportDiff;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.DamagedKind;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.WindowlessApp;
import java.util.HashMap;
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
    private static void on(Runnable change) {
        Fx.get(() -> {
            change.run();
            return null;
        });
    }

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
            assertThat(Fx.get(() -> diff.restorePreviewProperty().get()))
                    .contains("Restore (skip-changed) would bring back 5 removed and leave 5 changed since");

            List<String> asked = new CopyOnWriteArrayList<>();
            on(() -> diff.setRestorer(app.model()::prepareRestore));
            on(() -> backups.restore((spec, what) -> asked.add(what)));
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
