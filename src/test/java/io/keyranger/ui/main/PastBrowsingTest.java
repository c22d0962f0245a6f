package io.keyranger.ui.main;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.support.DamagedKind;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.WindowlessApp;
import io.keyranger.ui.asof.AsOfModel;
import io.keyranger.ui.entities.EntitiesViewModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The "As of" control's view models, no window: the browser pages, counts and queries the database as it was at a
 * past moment (checked against the emulator's own reads at that moment), writes nothing there, keeps jobs and backups
 * on live data, and comes back to live data; bad times and the legacy emulator are refused in words.
 */
class PastBrowsingTest {
    @Test
    void theBrowserPagesCountsAndQueriesThePastAndWritesNothingThere() throws Exception {
        DamagedKind damaged = DamagedKind.create("past-vm");
        List<Entity> then = damaged.atBefore();
        List<Entity> now = damaged.now();
        assertThat(then).hasSize(DamagedKind.SEEDED);
        assertThat(now).hasSize(DamagedKind.SEEDED + 5);
        try (WindowlessApp app = WindowlessApp.connectedTo(damaged.spec(), DamagedKind.KIND)) {
            MainViewModel model = app.model();
            EntitiesViewModel entities = model.entities();
            Fx.waitUntil(60, () -> entities.titleProperty().get().startsWith("Item: page 1"));
            AsOfModel asOf = model.asOf();
            assertThat(Fx.get(() -> asOf.availableProperty().get())).isTrue();

            openPast(asOf, damaged.before().toString());
            Fx.waitUntil(60, () -> entities.titleProperty().get().startsWith("Item: page 1")
                    && !entities.loadingProperty().get() && !entities.rows().isEmpty() && entities.rows().get(0).getLong("n") == 1);
            assertThat(Fx.get(() -> List.copyOf(entities.rows()))).as("page 1 as it was")
                    .containsExactlyElementsOf(then.subList(0, EntitiesViewModel.PAGE_SIZE));
            Fx.get(() -> {
                entities.nextPage();
                return null;
            });
            Fx.waitUntil(30, () -> entities.titleProperty().get().startsWith("Item: page 2")
                    && !entities.loadingProperty().get());
            assertThat(Fx.get(() -> List.copyOf(entities.rows()))).as("page 2 as it was: the deleted ones, none added")
                    .containsExactlyElementsOf(then.subList(EntitiesViewModel.PAGE_SIZE, then.size()));
            assertThat(Fx.get(() -> entities.hasNextProperty().get())).isFalse();
            Fx.waitUntil(60, () -> app.kind(DamagedKind.KIND).countProperty().get() != null);
            assertThat(Fx.get(() -> app.kind(DamagedKind.KIND).countProperty().get().count()))
                    .as("counted as it was").isEqualTo(DamagedKind.SEEDED);

            // GQL runs there too: the changed ones as they were, the deleted ones found
            Fx.get(() -> {
                entities.queryTextProperty().set("SELECT * FROM Item WHERE state = 'original' AND n <= 10");
                entities.runQuery();
                return null;
            });
            Fx.waitUntil(30, () -> entities.titleProperty().get().startsWith("Item (query): page 1")
                    && !entities.loadingProperty().get());
            assertThat(Fx.get(() -> List.copyOf(entities.rows()))).containsExactlyElementsOf(then.subList(0, 10));

            // the past is read-only; jobs and backups stay on live data, the shard preview reads the past
            assertThat(Fx.get(() -> entities.edits().readOnlyProperty().get())).isTrue();
            assertThat(Fx.get(() -> entities.edits().readOnlyReasonProperty().get())).contains("Reading the past");
            Fx.get(() -> {
                entities.edits().delete(List.of(then.get(0)));
                return null;
            });
            Fx.waitUntil(10, () -> !app.errors().isEmpty());
            assertThat(app.errors()).containsExactly("Reading the past: editing is off.");
            assertThat(damaged.datastore().get(then.get(0).getKey())).as("nothing deleted").isNotNull();
            app.errors().clear();
            assertThat(Fx.get(() -> model.run().targetProperty().get().session().past())).isFalse();
            assertThat(Fx.get(() -> model.mapper().targetProperty().get().session().past())).isFalse();
            assertThat(Fx.get(() -> model.backups().sessionProperty().get().past())).isFalse();
            assertThat(Fx.get(() -> model.shards().targetProperty().get().session().asOf().time()))
                    .isEqualTo(damaged.before());
            assertThat(Fx.get(() -> asOf.bannerProperty().get())).startsWith("Looking at the database as of "
                    + damaged.before() + " — read-only.");
            assertThat(Fx.get(() -> model.status().connectionProperty().get()))
                    .endsWith(" · as of " + damaged.before() + " (read-only)");

            Fx.get(() -> {
                asOf.backToLive();
                return null;
            });
            Fx.waitUntil(60, () -> entities.titleProperty().get().startsWith("Item: page 1")
                    && !entities.loadingProperty().get() && !entities.rows().isEmpty() && entities.rows().get(0).getLong("n") == -1);
            assertThat(Fx.get(() -> List.copyOf(entities.rows()))).as("page 1 live again")
                    .containsExactlyElementsOf(now.subList(0, EntitiesViewModel.PAGE_SIZE));
            assertThat(Fx.get(() -> entities.edits().readOnlyProperty().get())).isFalse();
            assertThat(Fx.get(() -> asOf.bannerProperty().get())).isEmpty();
            Fx.waitUntil(60, () -> app.kind(DamagedKind.KIND).countProperty().get() != null);
            assertThat(Fx.get(() -> app.kind(DamagedKind.KIND).countProperty().get().count()))
                    .isEqualTo(DamagedKind.SEEDED + 5);
            assertThat(app.errors()).isEmpty();
        }
    }

    @Test
    void aTimeTheServerDoesNotKeepOrCannotReadIsRefusedBesideTheField() {
        try (WindowlessApp app = WindowlessApp.connectedTo(SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR,
                "past-bad"))) {
            AsOfModel asOf = app.model().asOf();
            List<String> refusals = new ArrayList<>();
            for (String typed : List.of("yesterday", "-2h", "2099-01-01T00:00:00Z")) {
                Fx.get(() -> {
                    asOf.typedProperty().set(typed);
                    asOf.open();
                    return null;
                });
                Fx.waitUntil(30, () -> !asOf.openingProperty().get() && !asOf.errorProperty().get().isEmpty());
                refusals.add(Fx.get(() -> asOf.errorProperty().get()));
                assertThat(Fx.get(() -> asOf.pastProperty().get())).isNull();
            }
            assertThat(refusals.get(0)).contains("'yesterday' is not a time");
            assertThat(refusals.get(1)).contains("older than the database keeps");
            assertThat(refusals.get(2)).contains("is in the future");
            assertThat(refusals).allSatisfy(r -> assertThat(r).doesNotContain("Exception").doesNotContain("\tat "));
            assertThat(app.errors()).isEmpty();
        }
    }

    @Test
    void theLegacyEmulatorKeepsNoPastSoTheControlIsOffAndSaysWhy() {
        try (WindowlessApp app = WindowlessApp.connectedTo(SharedEmulator.freshProject(ServerType.EMULATOR,
                "past-legacy"))) {
            AsOfModel asOf = app.model().asOf();
            assertThat(Fx.get(() -> asOf.availableProperty().get())).isFalse();
            assertThat(Fx.get(() -> asOf.unavailableReasonProperty().get())).isEqualTo(ServerType.NO_PAST);
            openPastExpectingError(asOf, "-1m");
            assertThat(Fx.get(() -> asOf.errorProperty().get())).isEqualTo(ServerType.NO_PAST);
            assertThat(Fx.get(() -> app.model().browsingSession().past())).isFalse();
        }
    }

    private static void openPast(AsOfModel asOf, String typed) {
        Fx.get(() -> {
            asOf.typedProperty().set(typed);
            asOf.open();
            return null;
        });
        Fx.waitUntil(30, () -> asOf.pastProperty().get() != null);
        Session past = Fx.get(() -> asOf.pastProperty().get());
        assertThat(past.past()).isTrue();
        assertThat(Fx.get(() -> asOf.errorProperty().get())).isEmpty();
        assertThat(Fx.get(() -> asOf.noteProperty().get())).as("a time within the hour is not rounded; what the "
                + "Firestore emulator keeps is said").isEqualTo(ReadWindow.rule(ServerType.FIRESTORE_EMULATOR));
    }

    private static void openPastExpectingError(AsOfModel asOf, String typed) {
        Fx.get(() -> {
            asOf.typedProperty().set(typed);
            asOf.open();
            return null;
        });
        Fx.waitUntil(30, () -> !asOf.openingProperty().get() && !asOf.errorProperty().get().isEmpty());
    }
}
