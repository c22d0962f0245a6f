package io.keyranger.ui.backups;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.job.RestoreMode;
import io.keyranger.profile.ConnectionProfile;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.WindowlessApp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The Backups tab opens another database (a saved connection) as it opens an export or a moment: its kinds counted as
 * the emulator holds them, compared with the connected database (the same damaged keys the emulator's own queries of
 * both give), and copied in as a job the Run tab runs, with overwrite and "remove what the source does not hold": the
 * kind then equals the source's, entity by entity, placed in the connected project and namespace (the source's is
 * another, as its saved connection names it). The connected database itself is refused as a source in words.
 */
class OtherDatabaseBackupsTest {
    private static final String KIND = "Item";

    @Test
    void theAppComparesAnotherDatabaseWithTheConnectedOneAndCopiesItIn() throws Exception {
        ConnectionSpec source = SharedEmulator.freshProject("other-db-src");
        ConnectionSpec target = SharedEmulator.freshProject("other-db-tgt");
        Datastore from = SharedEmulator.connect(source);
        Datastore to = SharedEmulator.connect(target);
        List<Entity> seeded = new ArrayList<>();
        List<Entity> damaged = new ArrayList<>();
        for (int i = 1; i <= 60; i++) {
            Key key = i % 2 == 0 ? from.newKeyFactory().setNamespace("eu").setKind(KIND).newKey(i)
                    : from.newKeyFactory().setNamespace("eu").setKind(KIND).newKey("ü-" + i);
            seeded.add(Entity.newBuilder(key).set("n", i).set("self", key).build());
            Key here = Key.newBuilder(key).setProjectId(target.projectId()).setNamespace("").build();
            if (i % 10 == 1) {
                continue; // removed here
            }
            damaged.add(Entity.newBuilder(here).set("n", i % 10 == 2 ? -i : i).set("self", here).build());
        }
        for (int i = 0; i < 4; i++) {
            damaged.add(Entity.newBuilder(to.newKeyFactory().setKind(KIND).newKey("only-here-" + i)).set("n", i)
                    .build());
        }
        SharedEmulator.putAll(from, seeded);
        SharedEmulator.putAll(to, damaged);
        Map<Key, Entity> expected = new HashMap<>();
        for (Entity e : seeded) {
            Key here = Key.newBuilder(e.getKey()).setProjectId(target.projectId()).setNamespace("").build();
            expected.put(here, Entity.newBuilder(here, e).set("self", here).build());
        }
        try (WindowlessApp app = WindowlessApp.connectedTo(target, KIND)) {
            BackupsViewModel backups = app.model().backups();
            DiffModel diff = backups.diff();
            Fx.on(() -> backups.profileProperty().set(new ConnectionProfile("itself", target.emulatorHost(),
                    target.projectId(), null, null, null, false)));
            Fx.on(backups::openOther);
            Fx.waitUntil(60, () -> !backups.busyProperty().get() && !app.errors().isEmpty());
            assertThat(app.errors()).singleElement().asString().contains("The source is the connected database itself");
            assertThat(Fx.get(() -> backups.databaseProperty().get())).isNull();
            app.errors().clear();

            Fx.on(() -> backups.profileProperty().set(new ConnectionProfile("prod", source.emulatorHost(),
                    source.projectId(), null, null, "eu", false)));
            Fx.on(backups::openOther);
            Fx.waitUntil(60, () -> !backups.busyProperty().get() && !backups.kinds().isEmpty());
            assertThat(Fx.get(() -> List.copyOf(backups.kinds()))).as("the source's kind, counted there")
                    .containsExactly(new BackupsViewModel.KindRow("eu", KIND, 60));
            assertThat(Fx.get(() -> backups.summaryProperty().get())).startsWith("project " + source.projectId()
                    + ", namespace eu (connection prod): 60 entities in 1 kind.").contains("live: the legacy Datastore emulator keeps no past");
            assertThat(Fx.get(() -> backups.canQuery().get())).isFalse();

            Fx.on(backups::compare);
            Fx.waitUntil(60, () -> diff.summaryProperty().get().contains("removed"));
            assertThat(Fx.get(() -> diff.summaryProperty().get())).contains("48 the same, 6 changed, 6 removed and "
                    + "4 added");

            List<String> asked = new CopyOnWriteArrayList<>();
            Fx.on(() -> {
                backups.restoring().modeProperty().set(RestoreMode.OVERWRITE);
                backups.restoring().removeAddedProperty().set(true);
                backups.restoring().withAncestorsProperty().set(true); // its roots have none: the same result
                backups.restoring().setRestorer(app.model()::prepareRestore);
                backups.restore((spec, what) -> asked.add(what), whole -> true);
            });
            assertThat(asked).containsExactly("restore Item from project " + source.projectId() + ", namespace eu "
                    + "(overwrite, removing what the source does not hold, with their ancestors)");
            Fx.waitUntil(30, () -> app.model().run().form().mapperJsonProperty().get().contains("\"database\"")
                    && app.model().run().form().mapperJsonProperty().get().contains("withAncestors")
                    && app.model().run().targetProperty().get() != null);
            Fx.on(() -> app.model().run().start());
            Fx.waitUntil(120, () -> app.model().run().status().summaryProperty().get().contains(" done: "));

            Map<Key, Entity> after = new HashMap<>();
            to.run(Query.newEntityQueryBuilder().setKind(KIND).build()).forEachRemaining(e -> after.put(e.getKey(), e));
            assertThat(after).as("the kind equal to the source's, as the emulator answers").isEqualTo(expected);
            assertThat(app.errors()).isEmpty();
        }
    }
}
