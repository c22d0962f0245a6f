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
import io.keyranger.ui.common.StatusModel;
import io.keyranger.ui.kinds.KindItem;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.concurrent.Task;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The kind list's counts: of two counts of one kind under way, the one asked for last shows. */
class KindCountsTest {
    @BeforeAll
    static void toolkit() {
        WindowlessApp.startToolkit();
    }

    /**
     * A count begun before a job ended (it read the kind as it was: here 20 entities, kept in namespace "before") that
     * answers after the job's recount (30) must not show last. Before, whichever answered last showed: 20.
     */
    @Test
    void aCountAnsweringAfterANewerOneOfItsKindIsDropped() {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.EMULATOR, "count-race");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore, "before", 20);
        seed(datastore, "", 30);
        DatastoreGateway gateway = new DatastoreGateway(datastore, ServerType.EMULATOR);
        List<Task<?>> asked = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        KindItem doc = new KindItem("Doc");
        KindCounts counts = Fx.get(() -> new KindCounts(asked::add, new StatusModel(), errors::add,
                new SimpleBooleanProperty(false)));
        Fx.get(() -> {
            counts.count(gateway, "before", List.of(doc)); // the older count
            counts.count(gateway, "", List.of(doc)); // the recount after the job
            return null;
        });

        asked.get(1).run(); // the recount answers first...
        Fx.waitUntil(30, () -> doc.countProperty().get() != null);
        asked.get(0).run(); // ...then the older count
        Fx.get(() -> null); // what it handed to the FX thread has run

        assertThat(Fx.get(() -> doc.countProperty().get().count())).as("the newest count stays").isEqualTo(30);
        assertThat(errors).isEmpty();
    }

    private static void seed(Datastore datastore, String namespace, int count) {
        List<Entity> entities = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            entities.add(Entity.newBuilder(datastore.newKeyFactory().setNamespace(namespace).setKind("Doc").newKey(i))
                    .set("n", i).build());
        }
        SharedEmulator.putAll(datastore, entities);
    }
}
