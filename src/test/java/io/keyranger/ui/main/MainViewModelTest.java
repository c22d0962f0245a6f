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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

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
}
