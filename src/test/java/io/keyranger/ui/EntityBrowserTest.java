package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.cli.GuiStarter.StartupRequest;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.demo.DemoRequest;
import io.keyranger.support.Fx;
import io.keyranger.ui.kinds.KindItem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javafx.application.Application;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/** The Entities tab's query box and editing, driven in the real window on the demo's real emulator. */
class EntityBrowserTest {
    private static Path config;
    private static Application app;
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void launchInDemoMode() throws Exception {
        config = Files.createTempDirectory("keyranger-browser");
        FxToolkit.registerPrimaryStage();
        app = FxToolkit.setupApplication(() -> new KeyRangerApp(config,
                new StartupRequest(null, new DemoRequest(80, 0, null), null)));
    }

    @AfterAll
    static void close() throws Exception {
        FxToolkit.cleanupApplication(app);
        FxToolkit.cleanupStages();
    }

    @BeforeEach
    void accountSelected() {
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        Fx.waitUntil(120, () -> kinds.getItems().stream().anyMatch(k -> k.name().equals("Account")));
        Fx.get(() -> {
            kinds.getSelectionModel().clearSelection();
            kinds.getSelectionModel().select(kinds.getItems().stream().filter(k -> k.name().equals("Account"))
                    .findFirst().orElseThrow());
            return null;
        });
        Fx.waitUntil(30, () -> title().equals("Account: page 1, rows 1–50"));
        clickTab("Entities");
    }

    @Test
    void theQueryBoxRunsGqlWithTheServersFiltersAndOrder() {
        assertThat(Fx.get(() -> query().getText())).isEqualTo("SELECT * FROM Account");
        List<Entity> expected = new ArrayList<>();
        demoDatastore().run(Query.newEntityQueryBuilder().setKind("Account").build()).forEachRemaining(e -> {
            if (e.getString("tier").equals("pro") && e.getLong("balance") > 2000) {
                expected.add(e);
            }
        });
        expected.sort(Comparator.comparingLong((Entity e) -> e.getLong("balance")).reversed());
        assertThat(expected).isNotEmpty();
        robot.clickOn("#gqlQuery");
        Fx.get(() -> {
            query().setText("SELECT * FROM Account WHERE tier = 'pro' AND balance > 2000 ORDER BY balance DESC");
            return null;
        });
        robot.clickOn("#runQuery");
        Fx.waitUntil(30, () -> title().startsWith("Account (query): page 1"));
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        assertThat(Fx.get(() -> table.getItems().stream().map(Entity::getKey).toList()))
                .containsExactlyElementsOf(expected.stream().map(Entity::getKey).limit(50).toList());
        assertThat(error()).isEmpty();
    }

    @Test
    void aQueryThatDoesNotParseShowsItsColumnBesideTheBoxAndRunsNothing() {
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        List<Key> before = Fx.get(() -> table.getItems().stream().map(Entity::getKey).toList());
        Fx.get(() -> {
            query().setText("SELECT * FROM Account WHERE tier = pro");
            return null;
        });
        robot.clickOn("#gqlQuery").type(KeyCode.ENTER);
        Fx.waitUntil(10, () -> !error().isEmpty());
        assertThat(error()).contains("column 36").contains("quote strings");
        assertThat(Fx.get(() -> robot.lookup("#gqlError").query().isVisible())).isTrue();
        assertThat(Fx.get(() -> query().getCaretPosition())).isEqualTo(35);
        assertThat(Fx.get(() -> table.getItems().stream().map(Entity::getKey).toList())).isEqualTo(before);
    }

    @Test
    void aQueryTheEmulatorRefusesShowsTheServersReasonBesideTheBox() {
        Fx.get(() -> {
            query().setText("SELECT * FROM Account WHERE balance > 10 AND createdAt > DATETIME('2020-01-01T00:00:00Z')");
            return null;
        });
        robot.clickOn("#runQuery");
        Fx.waitUntil(30, () -> !error().isEmpty());
        assertThat(error()).startsWith("The server refused the query").contains("inequality");
    }

    @Test
    void completionsOfferTheKindsPropertiesAndKinds() {
        var model = ((KeyRangerApp) app).model().entities();
        Fx.waitUntil(30, () -> model.completions("SELECT * FROM Account WHERE bal").contains(
                "SELECT * FROM Account WHERE balance"));
        assertThat(model.completions("SELECT * FROM Ev")).containsExactly("SELECT * FROM Event");
        assertThat(model.completions("SELECT * FROM Account WHERE tier = 'pro' AN"))
                .contains("SELECT * FROM Account WHERE tier = 'pro' AND");
        robot.clickOn("#gqlQuery");
        Fx.get(() -> {
            query().clear();
            return null;
        });
        robot.write("SELECT * FROM Account WHERE tie");
        Fx.waitUntil(10, () -> robot.lookup(".auto-complete-popup").tryQuery().isPresent()
                && robot.lookup(".auto-complete-popup").query().isVisible());
    }

    @Test
    void theMapperAndRunTabsTakeTheSameGqlAndTheJobChangesOnlyItsMatches() {
        Datastore datastore = demoDatastore();
        java.util.Map<Key, Long> before = new java.util.HashMap<>();
        java.util.Set<Key> matching = new java.util.HashSet<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build()).forEachRemaining(e -> {
            before.put(e.getKey(), e.getLong("balance"));
            if (e.getString("tier").equals("pro") && e.getLong("balance") < 3000) {
                matching.add(e.getKey());
            }
        });
        assertThat(matching).isNotEmpty();
        clickTab("Mapper");
        robot.clickOn(robot.lookup("#examples .list-cell").match(n -> "Add free credit".equals(
                ((javafx.scene.control.ListCell<?>) n).getText())).queryAs(javafx.scene.Node.class));
        Fx.get(() -> {
            robot.lookup("#mapperGql").queryTextInputControl().setText("SELECT * FROM Account WHERE tier = pro");
            return null;
        });
        assertThat(Fx.get(() -> robot.lookup("#specError").queryLabeled().getText())).contains("column 36");
        String gql = "SELECT * FROM Account WHERE tier = 'pro' AND balance < 3000";
        Fx.get(() -> {
            robot.lookup("#mapperGql").queryTextInputControl().setText(gql);
            return null;
        });
        assertThat(Fx.get(() -> robot.lookup("#specError").queryLabeled().getText())).isEmpty();
        robot.clickOn("#dryRun");
        Fx.waitUntil(60, () -> robot.lookup("#dryRunSummary").queryLabeled().getText().contains("Query:"));
        assertThat(Fx.get(() -> robot.lookup("#dryRunSummary").queryLabeled().getText()))
                .contains("Nothing was written").contains("balance < 3000: checked on the client");
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
    void createAnEntityWithTypedFieldsAndSeeInvalidInputBesideItsField() {
        Datastore datastore = demoDatastore();
        Key key = datastore.newKeyFactory().setKind("Account").newKey("made-in-ui");
        robot.clickOn("#newEntity");
        Fx.waitUntil(10, () -> robot.lookup("#entityKey").tryQuery().isPresent());
        setText("#entityKey", "KEY(Account, 'made-in-ui')");
        robot.clickOn("#addProperty");
        robot.clickOn("#addProperty");
        setText("#prop-0-name", "balance");
        Fx.get(() -> {
            robot.lookup("#prop-0-type").<javafx.scene.control.ComboBox<String>>query().setValue("integer");
            return null;
        });
        setText("#prop-0-value", "12.5");
        assertThat(Fx.get(() -> robot.lookup("#prop-0-error").queryLabeled().getText()))
                .isEqualTo("An integer is a whole number such as 42 or -7.");
        assertThat(Fx.get(() -> robot.lookup("#saveEntity").queryButton().isDisabled())).isTrue();
        setText("#prop-0-value", "125");
        setText("#prop-1-name", "tags");
        Fx.get(() -> {
            robot.lookup("#prop-1-type").<javafx.scene.control.ComboBox<String>>query().setValue("array");
            robot.lookup("#prop-1-indexed").<javafx.scene.control.CheckBox>query().setSelected(false);
            return null;
        });
        setText("#prop-1-value", "[{\"type\": \"string\", \"value\": \"vip\"}, {\"type\": \"integer\", \"value\": \"7\"}]");
        assertThat(Fx.get(() -> robot.lookup("#prop-1-error").queryLabeled().getText())).isEmpty();
        assertThat(Fx.get(() -> robot.lookup("#saveEntity").queryButton().isDisabled())).isFalse();
        robot.clickOn("#saveEntity");
        Fx.waitUntil(30, () -> datastore.get(key) != null);
        Entity made = datastore.get(key);
        assertThat(made.getLong("balance")).isEqualTo(125);
        assertThat(made.<com.google.cloud.datastore.Value<?>>getList("tags").stream().map(v -> (Object) v.get()).toList()).containsExactly("vip", 7L);
        assertThat(made.<com.google.cloud.datastore.Value<?>>getList("tags"))
                .allSatisfy(v -> assertThat(v.excludeFromIndexes()).isTrue());
        Fx.waitUntil(10, () -> !robot.lookup("#undoEdit").queryButton().isDisabled());
        robot.clickOn("#undoEdit");
        Fx.waitUntil(30, () -> datastore.get(key) == null);
    }

    @Test
    void editAnEntitysValueAndIndexFlagThenUndoIt() {
        Datastore datastore = demoDatastore();
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        Entity original = Fx.get(() -> {
            table.getSelectionModel().clearAndSelect(3);
            return table.getItems().get(3);
        });
        @SuppressWarnings("unchecked")
        javafx.scene.control.TableColumn<Entity, ?> balance = Fx.get(() -> (javafx.scene.control.TableColumn<Entity, ?>)
                table.getColumns().stream().filter(c -> c.getText().equals("balance")).findFirst().orElseThrow());
        assertThat(Fx.get(() -> balance.getCellData(original))).isEqualTo(String.valueOf(original.getLong("balance")));
        robot.clickOn("#editEntity");
        Fx.waitUntil(10, () -> robot.lookup("#prop-1-name").tryQuery().isPresent());
        assertThat(Fx.get(() -> robot.lookup("#prop-1-name").queryTextInputControl().getText())).isEqualTo("balance");
        setText("#prop-1-value", "not a number");
        assertThat(Fx.get(() -> robot.lookup("#prop-1-error").queryLabeled().getText())).contains("whole number");
        setText("#prop-1-value", "777");
        Fx.get(() -> {
            robot.lookup("#prop-1-indexed").<javafx.scene.control.CheckBox>query().setSelected(false);
            return null;
        });
        robot.clickOn("#saveEntity");
        Fx.waitUntil(30, () -> datastore.get(original.getKey()).getLong("balance") == 777);
        Entity saved = datastore.get(original.getKey());
        assertThat(saved.getValue("balance").excludeFromIndexes()).isTrue();
        assertThat(saved.getString("tier")).isEqualTo(original.getString("tier"));
        Fx.waitUntil(10, () -> Fx.get(() -> robot.lookup("#editStatus").queryLabeled().getText()).startsWith("Done"));
        // the table shows the saved value (rendered when its page was read, or when asked for if not read since)
        Fx.waitUntil(30, () -> table.getItems().stream().anyMatch(e -> e.getKey().equals(original.getKey())
                && "777".equals(balance.getCellData(e))));
        robot.clickOn("#undoEdit");
        Fx.waitUntil(30, () -> datastore.get(original.getKey()).equals(original));
    }

    @Test
    void deleteASelectionThenUndoBringsItBack() {
        Datastore datastore = demoDatastore();
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        List<Entity> chosen = Fx.get(() -> {
            table.getSelectionModel().clearSelection();
            table.getSelectionModel().selectIndices(5, 6, 7);
            return List.copyOf(table.getSelectionModel().getSelectedItems());
        });
        assertThat(chosen).hasSize(3);
        robot.clickOn("#deleteEntities");
        robot.clickOn("OK");
        Key[] keys = chosen.stream().map(Entity::getKey).toArray(Key[]::new);
        Fx.waitUntil(30, () -> datastore.fetch(keys).stream().allMatch(java.util.Objects::isNull));
        Fx.waitUntil(10, () -> !robot.lookup("#undoEdit").queryButton().isDisabled()
                && Fx.get(() -> robot.lookup("#editStatus").queryLabeled().getText()).startsWith("Done"));
        robot.clickOn("#undoEdit");
        Fx.waitUntil(30, () -> datastore.fetch(keys).equals(chosen));
    }

    @Test
    void oneJobOverCheckedKindsNamesThemAllAndShowsATreePerKind() {
        Datastore datastore = demoDatastore();
        clickTab("Run");
        Fx.get(() -> {
            robot.lookup("#mapperJson").queryTextInputControl()
                    .setText("{\"template\": \"set\", \"property\": \"seen\", \"value\": \"yes\"}");
            org.controlsfx.control.CheckComboBox<String> kinds = robot.lookup("#jobKinds").query();
            kinds.getCheckModel().check("Org");
            kinds.getCheckModel().check("Event");
            return null;
        });
        robot.clickOn("#startJob");
        Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isPresent());
        assertThat(Fx.get(() -> ((javafx.scene.control.DialogPane) robot.lookup(".dialog-pane").query())
                .getContentText())).contains("every entity of these 2 kinds").contains("Event, Org");
        robot.clickOn("OK");
        Fx.waitUntil(120, () -> robot.lookup("#runSummary").queryLabeled().getText().contains(" done:"));
        javafx.scene.control.TreeTableView<?> tree = robot.lookup("#rangeTree").query();
        assertThat(Fx.get(() -> tree.getRoot().getChildren().stream().map(item -> String.valueOf(
                ((io.keyranger.ui.run.NodeRow) item.getValue()).id())).toList())).containsExactlyInAnyOrder("Org", "Event");
        for (String kind : List.of("Org", "Event", "Account")) {
            datastore.run(Query.newEntityQueryBuilder().setKind(kind).build()).forEachRemaining(e ->
                    assertThat(e.contains("seen")).as("%s", e.getKey()).isEqualTo(!kind.equals("Account")));
        }
        Fx.get(() -> {
            robot.lookup("#jobKinds").<org.controlsfx.control.CheckComboBox<String>>query().getCheckModel().clearChecks();
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

    private void selectKindInList(String kind) {
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        Fx.get(() -> {
            kinds.getSelectionModel().select(kinds.getItems().stream().filter(k -> k.name().equals(kind))
                    .findFirst().orElseThrow());
            return null;
        });
        Fx.waitUntil(30, () -> title().startsWith(kind + ":"));
    }

    private void setText(String id, String text) {
        Fx.get(() -> {
            robot.lookup(id).queryTextInputControl().setText(text);
            return null;
        });
    }

    private void clickTab(String title) {
        robot.clickOn(robot.lookup(".tab").match(n -> n.lookup(".tab-label") != null
                && title.equals(((javafx.scene.control.Labeled) n.lookup(".tab-label")).getText()))
                .queryAs(javafx.scene.Node.class));
    }

    private TextField query() {
        return robot.lookup("#gqlQuery").query();
    }

    private String error() {
        return Fx.get(() -> robot.lookup("#gqlError").queryLabeled().getText());
    }

    private String title() {
        return Fx.get(() -> robot.lookup("#pageTitle").queryLabeled().getText());
    }

    private Datastore demoDatastore() {
        String host = Fx.get(() -> robot.lookup("#connectionStatus").queryLabeled().getText())
                .replaceAll("^emulator (\\S+) / .*$", "$1");
        return DatastoreConnector.connect(ConnectionSpec.emulator(host, "demo-project"));
    }
}
