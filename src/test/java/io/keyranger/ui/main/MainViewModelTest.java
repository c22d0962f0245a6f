package io.keyranger.ui.main;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.WindowlessApp;
import io.keyranger.ui.kinds.KindItem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.beans.InvalidationListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The main window's view model, no window: the connection given at start-up, the kind list and its counts. */
class MainViewModelTest {
    private static void seed(ConnectionSpec conn, String kind, int count) {
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> entities = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            entities.add(Entity.newBuilder(datastore.newKeyFactory().setKind(kind).newKey(i)).set("n", i).build());
        }
        SharedEmulator.putAll(datastore, entities);
    }

    /** {@code gui --emulator-host H --kind Account}: the picker names that connection and the kind shows at once. */
    @Test
    void theGivenConnectionIsNamedAndTheKindsPageShowsBeforeTheCountsAreDone() {
        ConnectionSpec conn = SharedEmulator.freshProject("startup");
        seed(conn, "Account", 20_000);
        try (WindowlessApp app = WindowlessApp.connectedTo(conn, "Account")) {
            MainViewModel model = app.model();
            Fx.waitUntil(60, () -> model.entities().titleProperty().get().startsWith("Account: page 1"));
            KindItem account = app.kind("Account");
            assertThat(Fx.get(() -> account.countProperty().get()))
                    .as("the page did not wait for the count of 20,000 keys").isNull();
            assertThat(Fx.get(() -> model.selectedKindProperty().get())).isSameAs(account);
            assertThat(Fx.get(() -> String.valueOf(model.connections().selectedChoiceProperty().get())))
                    .isEqualTo("emulator " + conn.emulatorHost() + " / " + conn.projectId()).doesNotContain("Demo");
            Fx.waitUntil(120, () -> account.countProperty().get() != null);
            assertThat(Fx.get(() -> account.countProperty().get().count())).isEqualTo(20_000);
        }
    }

    /**
     * On the Firestore emulator in Datastore mode, which cannot list kinds: the kind list says why it shows only the
     * kinds KeyRanger knows, a kind typed in opens (with its properties from a sample), and it is listed from then on.
     * ({@code FirestoreWindowTest} checks that the window shows the note.)
     */
    @Test
    void theKindListSaysWhyItIsPartialAndATypedKindOpens() {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "fs-kinds");
        seed(conn, "Item", 30);
        try (WindowlessApp app = WindowlessApp.connectedTo(conn)) {
            MainViewModel model = app.model();
            Fx.waitUntil(60, () -> model.kindListNoteProperty().get().contains("cannot list kinds"));
            assertThat(Fx.get(() -> model.kinds().size())).as("nothing known yet").isZero();

            Fx.get(() -> {
                model.openTypedKind("Item");
                return null;
            });
            Fx.waitUntil(60, () -> model.selectedKindProperty().get() != null
                    && model.selectedKindProperty().get().name().equals("Item"));
            Fx.waitUntil(60, () -> model.properties().stream()
                    .anyMatch(p -> p.name().equals("n") && p.types().equals(List.of("integer"))));
            Fx.waitUntil(60, () -> model.kinds().get(0).countProperty().get() != null);
            assertThat(Fx.get(() -> model.kinds().get(0).countProperty().get().count())).isEqualTo(30);
            assertThat(app.errors()).isEmpty();
        }
        // the kind is remembered in the database: a fresh listing shows it
        assertThat(new DatastoreGateway(SharedEmulator.connect(conn), ServerType.FIRESTORE_EMULATOR).kinds("", false))
                .containsExactly("Item");
    }

    /**
     * After a job only what it wrote is read again: an export (which writes nothing) and an increment (which changes
     * entities in place) recount no kind, a delete of one Beta recounts Beta and not Alpha. Before, every job
     * recounted every listed kind (on the legacy emulator a keys-only scan of each), and an increment its kind.
     */
    @Test
    void aJobRecountsOnlyTheKindsItWrote(@TempDir Path dir) {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.EMULATOR, "recount");
        seed(conn, "Alpha", 20);
        seed(conn, "Beta", 30);
        try (WindowlessApp app = WindowlessApp.connectedTo(conn)) {
            MainViewModel model = app.model();
            app.select("Beta");
            KindItem alpha = app.kind("Alpha");
            KindItem beta = app.kind("Beta");
            Fx.waitUntil(60, () -> alpha.countProperty().get() != null && beta.countProperty().get() != null
                    && !model.status().busyProperty().get());
            AtomicInteger alphaCounts = counted(alpha);
            AtomicInteger betaCounts = counted(beta);

            runJob(model, "{\"template\": \"export\", \"file\": \"" + dir.resolve("beta.jsonl") + "\"}");
            // the job's end and what it starts happen in one FX event: a count started then shows in the status bar
            assertThat(Fx.get(() -> model.status().busyProperty().get())).as("no count after an export").isFalse();

            runJob(model, "{\"template\": \"increment\", \"property\": \"n\", \"amount\": 1}");
            assertThat(Fx.get(() -> model.status().busyProperty().get()))
                    .as("an increment changes entities in place: no count (a scan of the kind here)").isFalse();
            assertThat(betaCounts.get()).isZero();

            runJob(model, "{\"template\": \"delete\", \"where\": [{\"property\": \"n\", \"value\": 2}]}");
            Fx.waitUntil(60, () -> betaCounts.get() > 0 && !model.status().busyProperty().get());
            assertThat(betaCounts.get()).as("Beta counted once, after the delete").isEqualTo(1);
            assertThat(alphaCounts.get()).as("Alpha, which no job wrote, not counted again").isZero();
            assertThat(Fx.get(() -> beta.countProperty().get().count())).isEqualTo(29);
            assertThat(app.errors()).isEmpty();
        }
    }

    /**
     * A copy writes the kind it copies to, not the one it reads: after Beta is copied to Alpha, Alpha is counted again
     * (its 20 became 30: Beta's ids 1..30) and Beta is not. Before, only Beta, the kind read, was counted again, and
     * Alpha kept showing 20.
     */
    @Test
    void aCopyRecountsTheKindItWroteTo() {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.EMULATOR, "recount-copy");
        seed(conn, "Alpha", 20);
        seed(conn, "Beta", 30);
        try (WindowlessApp app = WindowlessApp.connectedTo(conn)) {
            MainViewModel model = app.model();
            app.select("Beta");
            KindItem alpha = app.kind("Alpha");
            KindItem beta = app.kind("Beta");
            Fx.waitUntil(60, () -> alpha.countProperty().get() != null && beta.countProperty().get() != null
                    && !model.status().busyProperty().get());
            AtomicInteger betaCounts = counted(beta);

            runJob(model, "{\"template\": \"copy\", \"toKind\": \"Alpha\"}");
            Fx.waitUntil(60, () -> !model.status().busyProperty().get());
            assertThat(Fx.get(() -> alpha.countProperty().get().count())).as("Alpha counted again").isEqualTo(30);
            assertThat(betaCounts.get()).as("Beta, only read, not counted again").isZero();
            assertThat(app.errors()).isEmpty();
        }
    }

    /** How many times {@code item}'s count is set from now on. */
    private static AtomicInteger counted(KindItem item) {
        AtomicInteger sets = new AtomicInteger();
        Fx.get(() -> {
            item.countProperty().addListener((InvalidationListener) obs -> {
                item.countProperty().get(); // valid again: the next set is heard too
                sets.incrementAndGet();
            });
            return null;
        });
        return sets;
    }

    /** Runs {@code mapperJson} over the selected kind on the Run tab and waits for its end. */
    private static void runJob(MainViewModel model, String mapperJson) {
        Fx.get(() -> {
            model.run().form().mapperJsonProperty().set(mapperJson);
            model.run().start();
            return null;
        });
        Fx.waitUntil(60, () -> model.run().status().summaryProperty().get().contains(" done: "));
    }
}
