package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.support.MapperExamplesMenu;
import io.keyranger.ui.kinds.KindItem;
import io.keyranger.ui.run.NodeRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javafx.scene.control.DialogPane;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeTableView;
import javafx.scene.input.KeyCode;
import org.controlsfx.control.CheckComboBox;
import org.junit.jupiter.api.Test;

/** The Entities tab's query box, and jobs started from the window, driven on the demo's real emulator. */
class EntityBrowserTest extends DemoWindowTest {
    /**
     * Enter in the query box runs it; an error shows beside the box with the caret at its column. What the error says
     * and that the rows go: {@code ui.entities.EntitiesViewModelTest}, as are the server's refusals and completions.
     */
    @Test
    void aQueryThatDoesNotParseShowsItsColumnBesideTheBoxAndRunsNothing() {
        Fx.get(() -> {
            query().setText("SELECT * FROM Account WHERE tier = pro");
            return null;
        });
        robot.clickOn("#gqlQuery").type(KeyCode.ENTER);
        Fx.waitUntil(10, () -> !error().isEmpty());
        assertThat(error()).contains("column 36");
        assertThat(Fx.get(() -> robot.lookup("#gqlError").query().isVisible())).isTrue();
        assertThat(Fx.get(() -> query().getCaretPosition())).isEqualTo(35);
    }

    @Test
    void completionsShowInAPopUpAsOneTypes() {
        var model = ((KeyRangerApp) app).model().entities();
        Fx.waitUntil(30, () -> model.completions("SELECT * FROM Account WHERE tie").contains(
                "SELECT * FROM Account WHERE tier"));
        robot.clickOn("#gqlQuery");
        Fx.get(() -> {
            query().clear();
            return null;
        });
        robot.write("SELECT * FROM Account WHERE tie");
        Fx.waitUntil(10, () -> robot.lookup(".auto-complete-popup").tryQuery().isPresent()
                && robot.lookup(".auto-complete-popup").query().isVisible());
    }

    /** The query's checks and dry run in the Mapper tab: {@code ui.mapper.MapperViewModelTest}. */
    @Test
    void theMapperAndRunTabsTakeTheSameGqlAndTheJobChangesOnlyItsMatches() {
        Datastore datastore = demoDatastore();
        Map<Key, Long> before = new HashMap<>();
        Set<Key> matching = new HashSet<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build()).forEachRemaining(e -> {
            before.put(e.getKey(), e.getLong("balance"));
            if (e.getString("tier").equals("pro") && e.getLong("balance") < 3000) {
                matching.add(e.getKey());
            }
        });
        assertThat(matching).isNotEmpty();
        clickTab("Mapper");
        MapperExamplesMenu.choose(robot, "Add free credit");
        String gql = "SELECT * FROM Account WHERE tier = 'pro' AND balance < 3000";
        Fx.get(() -> {
            robot.lookup("#mapperGql").queryTextInputControl().setText(gql);
            return null;
        });
        robot.clickOn("#useInRun");
        assertThat(Fx.get(() -> robot.lookup("#jobGql").queryTextInputControl().getText())).isEqualTo(gql);
        robot.clickOn("#startJob");
        robot.clickOn("Run without export");
        Fx.waitUntil(90, () -> robot.lookup("#runSummary").queryLabeled().getText().contains(" done:"));
        assertThat(Fx.get(() -> robot.lookup("#jobTotals").queryLabeled().getText()))
                .contains("written " + matching.size());
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build()).forEachRemaining(e ->
                assertThat(e.getLong("balance")).as("%s", e.getKey())
                        .isEqualTo(before.get(e.getKey()) + (matching.contains(e.getKey()) ? 10 : 0)));
        Fx.get(() -> {
            robot.lookup("#jobGql").queryTextInputControl().setText("");
            robot.lookup("#mapperGql").queryTextInputControl().setText("");
            return null;
        });
    }

    @Test
    void oneJobOverCheckedKindsNamesThemAllAndShowsATreePerKind() {
        Datastore datastore = demoDatastore();
        clickTab("Run");
        Fx.get(() -> {
            robot.lookup("#mapperJson").queryTextInputControl()
                    .setText("{\"template\": \"set\", \"property\": \"seen\", \"value\": \"yes\"}");
            CheckComboBox<String> kinds = robot.lookup("#jobKinds").query();
            kinds.getCheckModel().check("Org");
            kinds.getCheckModel().check("Event");
            return null;
        });
        robot.clickOn("#startJob");
        Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isPresent());
        assertThat(Fx.get(() -> ((DialogPane) robot.lookup(".dialog-pane").query())
                .getContentText())).contains("every entity of these 2 kinds").contains("Event, Org");
        robot.clickOn("OK");
        Fx.waitUntil(120, () -> robot.lookup("#runSummary").queryLabeled().getText().contains(" done:"));
        TreeTableView<?> tree = robot.lookup("#rangeTree").query();
        assertThat(Fx.get(() -> tree.getRoot().getChildren().stream().map(item -> String.valueOf(
                ((NodeRow) item.getValue()).id())).toList())).containsExactlyInAnyOrder("Org", "Event");
        for (String kind : List.of("Org", "Event", "Account")) {
            datastore.run(Query.newEntityQueryBuilder().setKind(kind).build()).forEachRemaining(e ->
                    assertThat(e.contains("seen")).as("%s", e.getKey()).isEqualTo(!kind.equals("Account")));
        }
        Fx.get(() -> {
            robot.lookup("#jobKinds").<CheckComboBox<String>>query().getCheckModel().clearChecks();
            return null;
        });
    }

    @Test
    void aJobsSkippedEntitiesAndItsCostShowBesideItsSummary() {
        Datastore datastore = demoDatastore();
        Key odd = datastore.newKeyFactory().setKind("Org").newKey("overflowing");
        datastore.put(Entity.newBuilder(odd).set("title", "x").set("credit", Long.MAX_VALUE).build());
        try {
            selectKindInList("Org");
            clickTab("Run");
            Fx.get(() -> {
                robot.lookup("#mapperJson").queryTextInputControl().setText(
                        "{\"template\": \"increment\", \"property\": \"credit\", \"amount\": 1, \"createMissing\": false}");
                return null;
            });
            robot.clickOn("#startJob");
            robot.clickOn("Run without export");
            Fx.waitUntil(90, () -> robot.lookup("#runSummary").queryLabeled().getText().contains(" done:"));
            assertThat(Fx.get(() -> robot.lookup("#runSummary").queryLabeled().getText()))
                    .contains("Operations: ").contains("≈ ").contains("prices of 2026-11-23");
            String problems = Fx.get(() -> robot.lookup("#jobProblems").queryLabeled().getText());
            assertThat(problems).contains("Skipped entities, by reason:").contains("1 × integer overflow")
                    .contains("Org:\"overflowing\": 'credit' is 9223372036854775807").contains("missing property");
            assertThat(datastore.get(odd).getLong("credit")).isEqualTo(Long.MAX_VALUE);
        } finally {
            datastore.delete(odd);
        }
    }

    /**
     * Issue 47, stale screens: once a job run from the Run tab ends, the browser's page shows what it wrote without
     * Run query being pressed, and the kind list counts what a delete left.
     */
    @Test
    void aFinishedJobShowsInThePageOnShowAndInTheKindCounts() {
        Datastore datastore = demoDatastore();
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        clickTab("Run");
        setText("#mapperJson", "{\"template\": \"set\", \"property\": \"badge\", \"value\": \"fresh\"}");
        robot.clickOn("#startJob"); // set keeps undo records and offers no export first
        Fx.waitUntil(90, () -> labelText("#runSummary").contains(" done:"));
        clickTab("Entities");
        Fx.waitUntil(30, () -> Fx.get(() -> table.getColumns().stream().filter(c -> c.getText().equals("badge"))
                .anyMatch(c -> !table.getItems().isEmpty() && table.getItems().stream()
                        .allMatch(e -> "fresh".equals(c.getCellData(e))))));

        List<Key> refunds = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Event").build()).forEachRemaining(e -> {
            if (e.getString("type").equals("refund")) {
                refunds.add(e.getKey());
            }
        });
        assertThat(refunds).isNotEmpty();
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        KindItem event = Fx.get(() -> kinds.getItems().stream().filter(k -> k.name().equals("Event")).findFirst()
                .orElseThrow());
        Fx.waitUntil(60, () -> Fx.get(() -> event.countProperty().get() != null));
        long before = Fx.get(() -> event.countProperty().get().count());
        selectKindInList("Event");
        clickTab("Run");
        setText("#mapperJson", "{\"template\": \"delete\"}");
        setText("#jobGql", "SELECT * FROM Event WHERE type = 'refund'");
        robot.clickOn("#startJob");
        robot.clickOn("Run without export");
        Fx.waitUntil(90, () -> labelText("#runSummary").contains(" done:"));
        assertThat(datastore.fetch(refunds.toArray(Key[]::new))).allMatch(Objects::isNull);
        Fx.waitUntil(60, () -> Fx.get(() -> event.countText().equals(String.format("%,d", before - refunds.size()))));
        setText("#jobGql", "");
    }

    private TextField query() {
        return robot.lookup("#gqlQuery").query();
    }

    private String error() {
        return Fx.get(() -> robot.lookup("#gqlError").queryLabeled().getText());
    }
}
