package io.keyranger.ui;

import io.keyranger.job.ListedJob;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.cli.GuiStarter.StartupRequest;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.datastore.ServerType;
import io.keyranger.demo.DemoDataset;
import io.keyranger.demo.DemoRequest;
import io.keyranger.job.JobStatus;
import io.keyranger.query.BrowserQuery;
import io.keyranger.query.Gql;
import io.keyranger.support.Fx;
import io.keyranger.support.MapperExamplesMenu;
import io.keyranger.ui.kinds.KindItem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The window on the Firestore emulator in Datastore mode (its demo, one launch for the class), through the browser,
 * the editor, Mapper and Run (with revert). Each works there; where the server lacks something (kind, namespace and
 * property metadata), the window says so in its own words, says what to do instead, and shows no error; kinds
 * KeyRanger writes there (an edit, a copy job) are listed from then on. Every outcome is checked against the
 * emulator's own answers. The Shards tab without {@code __scatter__} is checked on its view model
 * ({@code ui.shards.ShardsViewModelTest}).
 */
class FirestoreWindowTest {
    private static final int ACCOUNTS = 80;
    private static Application app;
    /** What the window reported as errors (it would show each in a dialog). */
    private static final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void launchTheFirestoreDemo() throws Exception {
        Path config = Files.createTempDirectory("keyranger-fs-window");
        FxToolkit.registerPrimaryStage();
        app = FxToolkit.setupApplication(() -> new KeyRangerApp(config,
                new StartupRequest(null, new DemoRequest(ACCOUNTS, 0, null, ServerType.FIRESTORE_EMULATOR), null)));
        var handler = ((KeyRangerApp) app).model().errorHandlerProperty();
        Fx.get(() -> {
            Consumer<String> shown = handler.get();
            handler.set(message -> {
                errors.add(message);
                shown.accept(message);
            });
            return null;
        });
        Stage stage = FxToolkit.toolkitContext().getRegisteredStage();
        Fx.get(() -> {
            stage.setMaximized(false);
            stage.setWidth(1280);
            stage.setHeight(800);
            return null;
        });
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
        Fx.waitUntil(60, () -> robot.lookup("#cancelJob").queryButton().isDisabled());
        Fx.get(() -> {
            kinds.getSelectionModel().clearSelection();
            kinds.getSelectionModel().select(kinds.getItems().stream().filter(k -> k.name().equals("Account"))
                    .findFirst().orElseThrow());
            return null;
        });
        Fx.waitUntil(30, () -> title().equals("Account: page 1, rows 1–50"));
        clickTab("Entities");
    }

    @AfterEach
    void noErrorShown() {
        assertThat(List.copyOf(errors)).as("errors the window showed").isEmpty();
        assertThat(robot.lookup(".dialog-pane").tryQuery()).as("no dialog left open").isEmpty();
    }

    @Test
    void theBrowserListsTheDemosKindsShowsPropertiesAndRunsGql() {
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        assertThat(Fx.get(() -> kinds.getItems().stream().map(KindItem::name).toList()))
                .containsExactly("Account", "Event", "Org");
        assertThat(Fx.get(() -> robot.lookup("#kindListNote").queryLabeled().getText())).contains("cannot list kinds");
        assertThat(Fx.get(() -> robot.lookup("#kindListNote").query().isVisible())).as("the note shows").isTrue();
        Fx.waitUntil(60, () -> kinds.getItems().stream().anyMatch(k -> k.name().equals("Account")
                && String.valueOf(ACCOUNTS).equals(k.countText())));
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        assertThat(Fx.get(() -> table.getItems().size())).isEqualTo(50);
        ListView<PropertyInfo> properties = robot.lookup("#propertyList").queryListView();
        Fx.waitUntil(30, () -> properties.getItems().stream().map(PropertyInfo::name).toList()
                .containsAll(List.of("active", "balance", "createdAt", "tier")));

        List<Key> expected = new ArrayList<>();
        demoDatastore().run(Query.newEntityQueryBuilder().setKind("Account")
                .setFilter(StructuredQuery.PropertyFilter.eq("tier", "pro")).build())
                .forEachRemaining(e -> expected.add(e.getKey()));
        assertThat(expected).isNotEmpty();
        Fx.get(() -> {
            robot.lookup("#gqlQuery").queryTextInputControl().setText("SELECT * FROM Account WHERE tier = 'pro'");
            return null;
        });
        robot.clickOn("#runQuery");
        Fx.waitUntil(30, () -> title().startsWith("Account (query): page 1"));
        assertThat(Fx.get(() -> table.getItems().stream().map(Entity::getKey).toList()))
                .containsExactlyElementsOf(expected.stream().limit(50).toList());
        assertThat(labelText("#gqlError")).isEmpty();
    }

    @Test
    void theEditorSavesAnEditTheEmulatorThenReturns() {
        Datastore datastore = demoDatastore();
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        Entity original = Fx.get(() -> {
            table.getSelectionModel().clearAndSelect(2);
            return table.getItems().get(2);
        });
        robot.clickOn("#editEntity");
        Fx.waitUntil(10, () -> robot.lookup("#prop-1-name").tryQuery().isPresent());
        assertThat(Fx.get(() -> robot.lookup("#prop-1-name").queryTextInputControl().getText())).isEqualTo("balance");
        Fx.get(() -> {
            robot.lookup("#prop-1-value").queryTextInputControl().setText("4242");
            return null;
        });
        robot.clickOn("#saveEntity");
        Fx.waitUntil(30, () -> datastore.get(original.getKey()).getLong("balance") == 4242);
        assertThat(datastore.get(original.getKey()).getString("tier")).isEqualTo(original.getString("tier"));
        Fx.waitUntil(10, () -> labelText("#editStatus").startsWith("Done"));
        robot.clickOn("#undoEdit");
        Fx.waitUntil(30, () -> datastore.get(original.getKey()).equals(original));
    }

    @Test
    void anEntityOfANewKindMadeInTheEditorIsListedFromThenOn() {
        Datastore datastore = demoDatastore();
        Key key = datastore.newKeyFactory().setKind("Widget").newKey("made-in-ui");
        robot.clickOn("#newEntity");
        Fx.waitUntil(10, () -> robot.lookup("#entityKey").tryQuery().isPresent());
        Fx.get(() -> {
            robot.lookup("#entityKey").queryTextInputControl().setText("KEY(Widget, 'made-in-ui')");
            return null;
        });
        robot.clickOn("#addProperty");
        Fx.get(() -> {
            robot.lookup("#prop-0-name").queryTextInputControl().setText("size");
            robot.lookup("#prop-0-type").<ComboBox<String>>query().setValue("integer");
            robot.lookup("#prop-0-value").queryTextInputControl().setText("3");
            return null;
        });
        robot.clickOn("#saveEntity");
        Fx.waitUntil(30, () -> datastore.get(key) != null);
        Fx.waitUntil(10, () -> labelText("#editStatus").startsWith("Done"));
        // the server cannot list kinds: the window lists Widget because KeyRanger recorded the kind it wrote
        assertThat(new DatastoreGateway(datastore, ServerType.FIRESTORE_EMULATOR).kinds("", false))
                .contains("Widget");
        relist();
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        Fx.waitUntil(30, () -> kinds.getItems().stream().map(KindItem::name).toList()
                .equals(List.of("Account", "Event", "Org", "Widget")));
        Fx.waitUntil(10, () -> !robot.lookup("#undoEdit").queryButton().isDisabled());
        robot.clickOn("#undoEdit");
        Fx.waitUntil(30, () -> datastore.get(key) == null);
    }

    @Test
    void theMapperTabDryRunsATemplateOverTheWholeKind() {
        clickTab("Mapper");
        chooseExample("Add free credit");
        Fx.waitUntil(5, () -> "balance".equals(robot.lookup("#param-property").queryTextInputControl().getText()));
        robot.clickOn("#dryRun");
        Fx.waitUntil(60, () -> labelText("#dryRunSummary").contains("Nothing was written"));
        assertThat(labelText("#dryRunSummary")).contains(ACCOUNTS + " entities")
                .doesNotContain("not among the indexed properties");
        assertThat(Fx.get(() -> robot.lookup("#dryRunTable").queryTableView().getItems().isEmpty())).isFalse();
    }

    @Test
    void theRunTabIncrementsEveryAccountOnceAfterABackupAndRevertTakesItBack() throws Exception {
        Datastore datastore = demoDatastore();
        Map<Key, Long> before = balances(datastore);
        assertThat(before).hasSize(ACCOUNTS);
        String home = System.getProperty("user.home");
        System.setProperty("user.home", Files.createTempDirectory("keyranger-fs-home").toString());
        try {
            clickTab("Mapper");
            chooseExample("Add free credit");
            robot.clickOn("#useInRun");
            Fx.waitUntil(10, () -> robot.lookup("#mapperJson").queryTextInputControl().getText()
                    .contains("\"increment\""));
            robot.clickOn("#startJob");
            Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isPresent());
            DialogPane offer = robot.lookup(".dialog-pane").queryAs(DialogPane.class);
            Button exportThenRun = Fx.get(() -> offer.getButtonTypes().stream()
                    .filter(b -> b.getText().equals("Export, then run")).map(b -> (Button) offer.lookupButton(b))
                    .findFirst().orElseThrow());
            robot.clickOn(exportThenRun);
            Fx.waitUntil(120, () -> labelText("#runSummary").contains("Backed up first to")
                    && labelText("#runSummary").contains(" done: "));
        } finally {
            System.setProperty("user.home", home);
        }
        assertThat(labelText("#jobTotals")).contains("read " + ACCOUNTS).contains("written " + ACCOUNTS);
        Map<Key, Long> after = balances(datastore);
        assertThat(after.keySet()).isEqualTo(before.keySet());
        before.forEach((key, balance) -> assertThat(after.get(key)).as("balance of %s", key).isEqualTo(balance + 10));

        ListView<ListedJob> jobs = robot.lookup("#pastJobs").queryListView();
        Fx.waitUntil(20, () -> jobs.getItems().stream().anyMatch(j -> j.spec().mapper().template()
                .equals("increment")));
        // the list is read again when the job ends: select the job once it is shown done
        Fx.waitUntil(20, () -> {
            if (jobs.getSelectionModel().getSelectedItem() == null) {
                jobs.getItems().stream().filter(j -> j.spec().mapper().template().equals("increment")
                        && j.status() == JobStatus.DONE).findFirst()
                        .ifPresent(j -> jobs.getSelectionModel().select(j));
            }
            return !robot.lookup("#revertJob").queryButton().isDisabled();
        });
        Platform.runLater(() -> robot.lookup("#revertJob").queryButton().fire()); // its confirmation waits for a click
        Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isPresent());
        robot.clickOn(robot.lookup(".dialog-pane .button").match(b -> "Revert".equals(((Button) b).getText()))
                .queryButton());
        Fx.waitUntil(60, () -> labelText("#runSummary").startsWith("Job revert-")
                && labelText("#runSummary").contains(" done: "));
        assertThat(balances(datastore)).as("every Account as it was before the job").isEqualTo(before);
    }

    @Test
    void aKindACopyJobWroteIsListedFromThenOn() {
        clickTab("Run");
        Fx.get(() -> {
            robot.lookup("#mapperJson").queryTextInputControl()
                    .setText("{\"template\": \"copy\", \"toKind\": \"AccountCopy\"}");
            return null;
        });
        robot.clickOn("#startJob");
        Fx.waitUntil(60, () -> labelText("#runSummary").contains(" done: ")
                && labelText("#jobTotals").contains("written " + ACCOUNTS));
        Datastore datastore = demoDatastore();
        try {
            // the server cannot list kinds: the copy's target is known from the job that wrote it
            assertThat(new DatastoreGateway(datastore, ServerType.FIRESTORE_EMULATOR).kinds("", false))
                    .contains("AccountCopy");
            relist();
            ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
            Fx.waitUntil(30, () -> kinds.getItems().stream().anyMatch(k -> k.name().equals("AccountCopy")));
        } finally {
            List<Key> copies = new ArrayList<>();
            datastore.run(Query.newKeyQueryBuilder().setKind("AccountCopy").build()).forEachRemaining(copies::add);
            datastore.delete(copies.toArray(new Key[0]));
            relist();
        }
    }

    /** Lists the default namespace's kinds afresh (by choosing another namespace, then it again). */
    private void relist() {
        ComboBox<String> namespaces = robot.lookup("#namespaceChoice").queryComboBox();
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        Fx.get(() -> {
            namespaces.setValue(DemoDataset.SECOND_NAMESPACE);
            return null;
        });
        Fx.waitUntil(30, () -> kinds.getItems().stream().noneMatch(k -> k.name().equals("Event")));
        Fx.get(() -> {
            namespaces.setValue("");
            return null;
        });
        Fx.waitUntil(30, () -> kinds.getItems().stream().anyMatch(k -> k.name().equals("Event")));
    }

    @Test
    void aQueryOverMetadataTheServerLacksSaysSoAndWhatToDoInstead() {
        // the server refuses __kind__ and __namespace__ queries in its own words, and answers __property__ ones with
        // nothing at all, which would read as a kind without properties
        runQuery("SELECT * FROM __property__");
        assertThat(labelText("#gqlError")).isEqualTo(BrowserQuery.lacking(Gql.parse("SELECT * FROM __property__",
                "demo-project", ""), false)).contains("no __property__ metadata")
                .contains("properties listed under the kinds come from a sample");
        assertThat(title()).isEqualTo("The query did not run: see its error above.");
        runQuery("SELECT * FROM __kind__");
        assertThat(labelText("#gqlError")).contains("cannot list kinds").contains("type its name under the list")
                .doesNotContain("Datastore error");
        runQuery("SELECT * FROM Account");
        assertThat(labelText("#gqlError")).isEmpty();
    }

    @Test
    void aQueryTheServerRefusesShowsItsReasonWithoutTheLegacyEmulatorsLimits() {
        // this emulator has !=, IN and NOT IN, and inequalities on several properties; it refuses two != filters
        runQuery("SELECT * FROM Account WHERE tier != 'pro' AND balance != 5");
        assertThat(labelText("#gqlError")).isEqualTo("The server refused the query: Datastore error "
                + "(INVALID_ARGUMENT) on runQuery: Only a single 'NOT_EQUAL' or 'NOT_IN' is allowed per query.");
        runQuery("SELECT * FROM Account WHERE balance > 10 AND tier > 'a'");
        assertThat(labelText("#gqlError")).isEmpty();
    }

    private void runQuery(String gql) {
        Fx.get(() -> {
            robot.lookup("#gqlQuery").queryTextInputControl().setText(gql);
            return null;
        });
        robot.clickOn("#runQuery");
        Fx.waitUntil(30, () -> !robot.lookup("#gqlError").queryLabeled().getText().isEmpty()
                || title().contains("(query): "));
    }

    private void chooseExample(String name) {
        MapperExamplesMenu.choose(robot, name);
    }

    /** A client of the demo's Firestore emulator, the one the window shows in its status bar. */
    private Datastore demoDatastore() {
        String host = labelText("#connectionStatus").replaceAll("^Firestore emulator (\\S+) / .*$", "$1");
        return DatastoreConnector.connect(ConnectionSpec.emulator(host, "demo-project")
                .withServer(ServerType.FIRESTORE_EMULATOR));
    }

    private static Map<Key, Long> balances(Datastore datastore) {
        Map<Key, Long> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build())
                .forEachRemaining((Entity e) -> all.put(e.getKey(), e.getLong("balance")));
        return all;
    }

    private void clickTab(String title) {
        robot.clickOn(robot.lookup(".tab").match(n -> n.lookup(".tab-label") != null
                && title.equals(((Labeled) n.lookup(".tab-label")).getText())).queryAs(Node.class));
    }

    private String title() {
        return labelText("#pageTitle");
    }

    private String labelText(String id) {
        return Fx.get(() -> robot.lookup(id).queryLabeled().getText());
    }
}
