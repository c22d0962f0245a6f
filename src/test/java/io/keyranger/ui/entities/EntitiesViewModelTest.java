package io.keyranger.ui.entities;

import static io.keyranger.support.Fx.on;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.WindowlessApp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Entities tab's view model on the demo's data, no window: pages by cursor, the query box, its completions, and
 * the history of edits (Undo and Redo).
 */
class EntitiesViewModelTest {
    private static final int ACCOUNTS = 120;
    private static ConnectionSpec conn;
    private static WindowlessApp app;
    private static EntitiesViewModel entities;

    @BeforeAll
    static void demoData() {
        conn = WindowlessApp.demoData("entities-vm", ACCOUNTS);
        app = WindowlessApp.connectedTo(conn);
        entities = app.model().entities();
    }

    @AfterAll
    static void close() {
        app.close();
    }

    /** Account selected afresh: page 1, and a query of the whole kind in the query box. */
    @BeforeEach
    void accountSelected() {
        app.select("Account");
        assertThat(title()).isEqualTo("Account: page 1, rows 1–50");
    }

    private static String title() {
        return Fx.get(() -> entities.titleProperty().get());
    }

    private static String error() {
        return Fx.get(() -> entities.queryErrorProperty().get());
    }

    private static List<Key> keys() {
        return Fx.get(() -> entities.rows().stream().map(Entity::getKey).toList());
    }


    private static void runQuery(String gql) {
        on(() -> {
            entities.queryTextProperty().set(gql);
            entities.runQuery();
        });
    }

    @Test
    void nextAndPreviousPageWithCursors() {
        List<Key> page1 = keys();
        on(entities::nextPage);
        Fx.waitUntil(30, () -> title().equals("Account: page 2, rows 51–100"));
        List<Key> page2 = keys();
        assertThat(page2).hasSize(50).doesNotContainAnyElementsOf(page1);

        on(entities::nextPage);
        Fx.waitUntil(30, () -> title().equals("Account: page 3, rows 101–120"));
        List<Key> page3 = keys();
        assertThat(page3).hasSize(20).doesNotContainAnyElementsOf(page1).doesNotContainAnyElementsOf(page2);
        assertThat(Fx.get(() -> entities.hasNextProperty().get())).as("no page after the last").isFalse();

        on(entities::previousPage);
        Fx.waitUntil(30, () -> title().equals("Account: page 2, rows 51–100"));
        assertThat(keys()).isEqualTo(page2);
    }

    @Test
    void theQueryBoxRunsGqlWithTheServersFiltersAndOrder() {
        assertThat(Fx.get(() -> entities.queryTextProperty().get())).isEqualTo("SELECT * FROM Account");
        List<Entity> expected = new ArrayList<>();
        SharedEmulator.connect(conn).run(Query.newEntityQueryBuilder().setKind("Account").build())
                .forEachRemaining(e -> {
                    if (e.getString("tier").equals("pro") && e.getLong("balance") > 2000) {
                        expected.add(e);
                    }
                });
        expected.sort(Comparator.comparingLong((Entity e) -> e.getLong("balance")).reversed());
        assertThat(expected).isNotEmpty();
        runQuery("SELECT * FROM Account WHERE tier = 'pro' AND balance > 2000 ORDER BY balance DESC");
        Fx.waitUntil(30, () -> title().startsWith("Account (query): page 1"));
        assertThat(keys()).containsExactlyElementsOf(expected.stream().map(Entity::getKey).limit(50).toList());
        assertThat(error()).isEmpty();
    }

    @Test
    void aQueryThatDoesNotParseSaysItsColumnAndRunsNothing() {
        assertThat(Fx.get(() -> entities.rows().size())).isPositive();
        runQuery("SELECT * FROM Account WHERE tier = pro");
        assertThat(error()).contains("column 36").contains("quote strings");
        assertThat(Fx.get(() -> entities.queryErrorColumnProperty().get())).isEqualTo(36);
        // the rows of the query that ran before are gone: they do not answer this one
        assertThat(Fx.get(() -> entities.rows().isEmpty())).isTrue();
        assertThat(title()).isEqualTo("The query did not run: see its error above.");
    }

    /** Issue 47: a typo of a property runs (nothing has it) but the box names it and the property it likely meant. */
    @Test
    void aQueryOnAPropertyTheKindLacksSaysWhichAndSuggestsTheNearest() {
        runQuery("SELECT * FROM Account WHERE tierr = 'pro'");
        Fx.waitUntil(30, () -> title().startsWith("Account (query)") && !Fx.get(() -> entities.loadingProperty().get()));
        assertThat(title()).isEqualTo("Account (query): no matches");
        assertThat(Fx.get(() -> entities.queryWarningProperty().get())).contains("'tierr' is not among the indexed "
                + "properties of Account").contains("Did you mean 'tier'?");
        assertThat(error()).isEmpty();
        runQuery("SELECT * FROM Account WHERE tier = 'pro'");
        Fx.waitUntil(30, () -> title().startsWith("Account (query): page 1"));
        assertThat(Fx.get(() -> entities.queryWarningProperty().get())).isEmpty();
    }

    @Test
    void aQueryTheEmulatorRefusesShowsTheServersReason() {
        runQuery("SELECT * FROM Account WHERE balance > 10 AND createdAt > DATETIME('2020-01-01T00:00:00Z')");
        Fx.waitUntil(30, () -> !error().isEmpty());
        assertThat(error()).startsWith("The server refused the query").contains("inequality");
    }

    @Test
    void completionsOfferTheKindsPropertiesAndKinds() {
        Fx.waitUntil(30, () -> entities.completions("SELECT * FROM Account WHERE bal").contains(
                "SELECT * FROM Account WHERE balance"));
        assertThat(Fx.get(() -> entities.completions("SELECT * FROM Ev"))).containsExactly("SELECT * FROM Event");
        assertThat(Fx.get(() -> entities.completions("SELECT * FROM Account WHERE tier = 'pro' AN")))
                .contains("SELECT * FROM Account WHERE tier = 'pro' AND");
    }

    /**
     * Undo takes back the user's edits, never an undo: with one edit undone there is nothing left to take back, and
     * Redo makes it again. ({@code ui.EntityEditingTest} makes the edit in the editor and undoes it from the window.)
     */
    @Test
    void undoTakesBackAnEditAndRedoMakesItAgain() {
        Datastore datastore = SharedEmulator.connect(conn);
        EntityEdits edits = entities.edits();
        Entity original = Fx.get(() -> entities.rows().get(3));
        Entity changed = Entity.newBuilder(original).set("balance", LongValue.newBuilder(777)
                .setExcludeFromIndexes(true).build()).build();
        on(() -> edits.update(original, changed));
        Fx.waitUntil(30, () -> status(edits).startsWith("Done"));
        assertThat(datastore.get(original.getKey()).getLong("balance")).isEqualTo(777);
        assertThat(Fx.get(() -> edits.canUndoProperty().get())).isTrue();

        on(edits::undo);
        Fx.waitUntil(30, () -> status(edits).startsWith("Undone: edit "));
        assertThat(datastore.get(original.getKey())).isEqualTo(original);
        assertThat(Fx.get(() -> edits.canUndoProperty().get())).isFalse();
        assertThat(Fx.get(() -> edits.canRedoProperty().get())).isTrue();

        on(edits::redo);
        Fx.waitUntil(30, () -> status(edits).startsWith("Redone: edit "));
        assertThat(datastore.get(original.getKey()).getLong("balance")).isEqualTo(777);
        assertThat(status(edits)).doesNotContain("undo undo");
        assertThat(Fx.get(() -> edits.canRedoProperty().get())).isFalse();
        on(edits::undo);
        Fx.waitUntil(30, () -> status(edits).startsWith("Undone: edit "));
        assertThat(datastore.get(original.getKey())).isEqualTo(original);
        assertThat(app.errors()).isEmpty();
    }

    /**
     * Issue 47: a job changed the entity the last edit saved. Once the job ends Undo is taken away, saying the entity
     * was changed since and left alone; nothing is written over the job's value, and no error dialog shows.
     */
    @Test
    void anUndoAJobMadeImpossibleIsTakenAwayAndSaysWhy() {
        Datastore datastore = SharedEmulator.connect(conn);
        EntityEdits edits = entities.edits();
        Entity original = Fx.get(() -> entities.rows().get(5));
        on(() -> edits.update(original, Entity.newBuilder(original).set("balance", 555).build()));
        Fx.waitUntil(30, () -> status(edits).startsWith("Done"));
        assertThat(Fx.get(() -> edits.canUndoProperty().get())).isTrue();

        var run = app.model().run();
        on(() -> {
            run.form().mapperJsonProperty().set("{\"template\": \"set\", \"property\": \"badge\", "
                    + "\"value\": \"job\"}");
            run.start();
        });
        Fx.waitUntil(90, () -> run.status().summaryProperty().get().contains(" done:"));
        Fx.waitUntil(30, () -> !edits.canUndoProperty().get());
        assertThat(status(edits)).startsWith("Undo is off: ").contains("was changed since (by a job or someone else)")
                .contains("left alone");
        assertThat(datastore.get(original.getKey()).getString("badge")).isEqualTo("job");
        assertThat(datastore.get(original.getKey()).getLong("balance")).isEqualTo(555);
        assertThat(app.errors()).isEmpty();
    }

    /** Someone else changed the entity between the edit and its Undo: the Undo writes nothing and says so. */
    @Test
    void anUndoThatMeetsTheEntityChangedSinceLeavesItAloneAndGoesOff() {
        Datastore datastore = SharedEmulator.connect(conn);
        EntityEdits edits = entities.edits();
        Entity original = Fx.get(() -> entities.rows().get(6));
        on(() -> edits.update(original, Entity.newBuilder(original).set("balance", 666).build()));
        Fx.waitUntil(30, () -> status(edits).startsWith("Done"));
        Entity theirs = Entity.newBuilder(datastore.get(original.getKey())).set("balance", 667).build();
        datastore.put(theirs);

        on(edits::undo);
        Fx.waitUntil(30, () -> status(edits).startsWith("Undo is off: "));
        assertThat(status(edits)).contains("was changed since (by a job or someone else) and was left alone");
        assertThat(Fx.get(() -> edits.canUndoProperty().get())).isFalse();
        assertThat(datastore.get(original.getKey())).isEqualTo(theirs);
        assertThat(app.errors()).isEmpty();
    }

    private static String status(EntityEdits edits) {
        return Fx.get(() -> edits.statusProperty().get());
    }
}
