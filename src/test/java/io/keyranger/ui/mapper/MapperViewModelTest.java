package io.keyranger.ui.mapper;

import static io.keyranger.support.Fx.on;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.WindowlessApp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Mapper tab's view model on the demo's data, no window: what a user types is checked beside its field, a dry run
 * shown always answers the spec in the form, and it says what the command line says.
 */
class MapperViewModelTest {
    private static final int ACCOUNTS = 120;
    private static ConnectionSpec conn;
    private static WindowlessApp app;
    private static MapperViewModel mapper;

    @BeforeAll
    static void demoData() {
        conn = WindowlessApp.demoData("mapper-vm", ACCOUNTS);
        app = WindowlessApp.connectedTo(conn);
        mapper = app.model().mapper();
    }

    @AfterAll
    static void close() {
        app.close();
    }

    /** Account selected and counted (a dry run over the whole kind uses the count), the form at its first example. */
    @BeforeEach
    void accountSelected() {
        app.select("Account");
        Fx.waitUntil(60, () -> app.kind("Account").countProperty().get() != null);
        on(() -> mapper.gqlProperty().set(""));
        app.errors().clear();
    }


    private static void chooseExample(String title) {
        on(() -> mapper.load(mapper.examples().stream().filter(e -> e.title().equals(title)).findFirst()
                .orElseThrow().json()));
    }

    private static String summary() {
        return Fx.get(() -> mapper.dryRunSummaryProperty().get());
    }

    private static String value(String param) {
        return Fx.get(() -> mapper.value(param).get());
    }

    private static String error(String param) {
        return Fx.get(() -> mapper.fieldError(param).get());
    }

    private static String json() {
        return Fx.get(() -> mapper.jsonProperty().get());
    }

    private static void dryRun() {
        on(mapper::dryRun);
        Fx.waitUntil(60, () -> summary().contains("Nothing was written"));
    }

    @Test
    void addFreeCreditIsCheckedBesideItsFieldsAndDryRunsTheWholeKind() {
        chooseExample("Add free credit");
        assertThat(value("property")).isEqualTo("balance");
        assertThat(value("amount")).isEqualTo("10");
        on(() -> mapper.value("amount").set("ten"));
        assertThat(error("amount")).contains("must be a number");
        on(() -> mapper.value("amount").set("10"));
        assertThat(error("amount")).isEmpty();
        assertThat(json()).contains("\"template\" : \"increment\"").contains("\"amount\" : 10");

        dryRun();
        assertThat(Fx.get(() -> mapper.changes().isEmpty())).isFalse();
        assertThat(summary()).contains("Nothing was written").contains(ACCOUNTS + " entities");
    }

    @Test
    void transformExampleShowsExpressionErrorsBesideTheFieldAndDryRuns() {
        chooseExample("Double a balance and set a tier");
        assertThat(value("set")).contains("balance * 2");
        assertThat(Fx.get(() -> mapper.whereProperty().get())).isEqualTo("has(balance) && tier != 'closed'");
        assertThat(json()).contains("\"template\" : \"transform\"")
                .contains("\"where\" : \"has(balance) && tier != 'closed'\"");

        on(() -> mapper.value("set").set("{\"balance\": \"balance * 'x'\"}"));
        assertThat(error("set")).contains("Expression set.balance (line 1, column 9)");
        on(() -> {
            mapper.value("set").set("{\"balance\": \"balance * 2\"}");
            mapper.value("remove").set("legacy, old");
        });
        assertThat(error("set")).isEmpty();
        assertThat(json()).contains("\"legacy\", \"old\"");

        dryRun();
        assertThat(Fx.get(() -> mapper.changes().isEmpty())).isFalse();
        assertThat(summary()).contains("Nothing was written").contains("matched by where");
    }

    @Test
    void loadingAnExampleClearsTheDryRunOfThePreviousSpec() {
        chooseExample("Add free credit");
        dryRun();
        assertThat(Fx.get(() -> mapper.changes().size())).isPositive();
        chooseExample("Deactivate users");
        assertThat(summary()).isEmpty();
        assertThat(Fx.get(() -> mapper.changes().isEmpty())).as("no rows of the other spec").isTrue();
    }

    @Test
    void aPropertyTypoIsNamedWithTheNearestNameAsOnTheCommandLine() {
        on(() -> {
            mapper.templateProperty().set(Mappers.template("increment"));
            mapper.value("property").set("balanse");
            mapper.value("amount").set("1");
        });
        dryRun();
        assertThat(summary()).contains("Warning: 'balanse' is not among the indexed properties of Account")
                .contains("Did you mean 'balance'?");
    }

    /** Issue 47: the typo shows beside its field as it is typed, before any dry run; the query's too. */
    @Test
    void aPropertyTypoShowsBesideItsFieldAsItIsTyped() {
        Fx.waitUntil(30, () -> mapper.propertyNames().contains("balance"));
        on(() -> {
            mapper.templateProperty().set(Mappers.template("increment"));
            mapper.value("amount").set("1");
            mapper.value("property").set("balanse");
        });
        assertThat(Fx.get(() -> mapper.fieldWarning("property").get()))
                .contains("'balanse' is not among the indexed properties of Account").contains("Did you mean 'balance'?");
        assertThat(error("property")).isEmpty();
        on(() -> mapper.value("property").set("balance"));
        assertThat(Fx.get(() -> mapper.fieldWarning("property").get())).isEmpty();

        on(() -> mapper.gqlProperty().set("SELECT * FROM Account WHERE tierr = 'pro'"));
        assertThat(Fx.get(() -> mapper.gqlWarningProperty().get())).contains("'tierr'").contains("Did you mean 'tier'?");
        on(() -> mapper.gqlProperty().set("SELECT * FROM Account WHERE tier = 'pro'"));
        assertThat(Fx.get(() -> mapper.gqlWarningProperty().get())).isEmpty();
        assertThat(summary()).as("no dry run was asked for").doesNotContain("Warning");
    }

    @Test
    void emptyRequiredFieldsAreMarkedAndADryRunOfThemSaysSoWithoutAPopUp() {
        on(() -> {
            mapper.templateProperty().set(Mappers.template("increment"));
            mapper.value("property").set("");
            mapper.value("amount").set("");
        });
        assertThat(error("property")).isNotEmpty();
        assertThat(error("amount")).as("every empty required field, not only the first").isNotEmpty();
        on(mapper::dryRun);
        assertThat(summary()).startsWith("Nothing was run: fix the fields marked in red first.");
        assertThat(app.errors()).as("nothing for an error dialog: no pop-up").isEmpty();
    }

    /** The property field offers the kind's properties by prefix, then by what they contain; a whole name needs none. */
    @Test
    void thePropertyFieldOffersTheKindsProperties() {
        chooseExample("Add free credit");
        Fx.waitUntil(30, () -> mapper.propertySuggestions("bal").contains("balance"));
        assertThat(Fx.get(() -> mapper.propertySuggestions("bal"))).containsExactly("balance");
        assertThat(Fx.get(() -> mapper.propertySuggestions("TI"))).containsExactly("tier", "active");
        assertThat(Fx.get(() -> mapper.propertySuggestions("balance"))).isEmpty();
    }

    /** A dry run over a GQL query whose inequality is applied on the client: how many match, never "0 writes". */
    @Test
    void aDryRunOverAClientSideConditionSaysHowManyMatchNotZeroWrites() {
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> ledger = new ArrayList<>();
        for (long id = 1; id <= 60; id++) { // 45 pro; of them, 57, 58 and 59 have a balance over 565
            ledger.add(Entity.newBuilder(datastore.newKeyFactory().setKind("UiLedger").newKey(id))
                    .set("tier", id % 4 == 0 ? "free" : "pro").set("balance", id * 10).build());
        }
        SharedEmulator.putAll(datastore, ledger);

        chooseExample("Add free credit");
        on(() -> mapper.gqlProperty().set("SELECT * FROM UiLedger WHERE tier = 'pro' AND balance > 565"));
        dryRun();
        String summary = summary();
        assertThat(summary).as(summary).doesNotContain(" 0 writes")
                .contains("On 45 entities, 3 of them matching balance > 565")
                .contains("Whole job, over 45 entities (exact, by a keys-only scan): 45 reads, 4 writes, 0 deletes")
                .contains("balance > 565 is checked on the client: 3 of the 45 entities that tier = 'pro' lets "
                        + "through match (every one was read: an exact count).");
        assertThat(Fx.get(() -> mapper.changes().size())).as("the three matches' changes").isEqualTo(3);
    }

    /** The Mapper and Run tabs take the same GQL: a query that does not parse says where, and the Run tab gets it. */
    @Test
    void aQueryIsCheckedDryRunOnTheClientAndHandedToTheRunTab() {
        chooseExample("Add free credit");
        on(() -> mapper.gqlProperty().set("SELECT * FROM Account WHERE tier = pro"));
        assertThat(Fx.get(() -> mapper.specErrorProperty().get())).contains("column 36");
        String gql = "SELECT * FROM Account WHERE tier = 'pro' AND balance < 3000";
        on(() -> mapper.gqlProperty().set(gql));
        assertThat(Fx.get(() -> mapper.specErrorProperty().get())).isEmpty();
        on(mapper::dryRun);
        Fx.waitUntil(60, () -> summary().contains("Query:"));
        assertThat(summary()).contains("Nothing was written").contains("balance < 3000: checked on the client");
        on(mapper::sendToRun);
        assertThat(Fx.get(() -> app.model().run().form().gqlProperty().get())).isEqualTo(gql);
        on(() -> app.model().run().form().gqlProperty().set(""));
    }
}
