package io.keyranger.ui.run;

import static io.keyranger.support.Fx.on;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.launch.Consent;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.WindowlessApp;
import io.keyranger.ui.mapper.MapperViewModel;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The Run tab's view model on the demo's data, no window: what its summary says before any job, and the one price of
 * a job wherever it is given (the Mapper tab's dry run, the confirmation before Start, the finished job).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RunTabModelTest {
    private static final String INCREMENT = "{\"template\": \"increment\", \"property\": \"balance\", \"amount\": 10}";
    private static WindowlessApp app;
    private static MapperViewModel mapper;
    private static RunViewModel run;

    @BeforeAll
    static void demoData() {
        ConnectionSpec conn = WindowlessApp.demoData("run-tab-vm", 60);
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> ledger = new ArrayList<>();
        for (long id = 1; id <= 60; id++) { // 45 pro; of them, 57, 58 and 59 have a balance over 565
            ledger.add(Entity.newBuilder(datastore.newKeyFactory().setKind("RunLedger").newKey(id))
                    .set("tier", id % 4 == 0 ? "free" : "pro").set("balance", id * 10).build());
        }
        SharedEmulator.putAll(datastore, ledger);
        app = WindowlessApp.connectedTo(conn);
        mapper = app.model().mapper();
        run = app.model().run();
    }

    @AfterAll
    static void close() {
        app.close();
    }


    private static String summary() {
        return Fx.get(() -> run.status().summaryProperty().get());
    }

    @Test
    @Order(1)
    void beforeAnyJobTheSummarySaysWhatIsStillToChooseOrWhatStartRuns() {
        assertThat(summary()).isEqualTo("Choose a kind on the left, then Start.");
        app.select("Account");
        assertThat(summary()).as("a kind and a mapper are chosen: nothing is missing")
                .isEqualTo("Start runs count over Account.");
        on(() -> run.form().mapperJsonProperty().set("{\"template\": "));
        assertThat(summary()).startsWith("The mapper's JSON is not valid").endsWith("Fix the mapper, then Start.");
        on(() -> run.form().mapperJsonProperty().set(INCREMENT));
        assertThat(summary()).isEqualTo("Start runs increment · property balance · amount 10 over Account.");
    }

    @Test
    @Order(2)
    void anIncrementOverTheKindHasOnePriceInItsDryRunItsConfirmationAndWhenDone() {
        onePrice("", "60 reads, 120 writes, 0 deletes");
    }

    @Test
    @Order(3)
    void anIncrementOverAQueryHasTheDryRunsPriceNotOneForTheSelectedKindAsIfAllChanged() {
        // before, the confirmation priced the selected kind (Account, 60) as if every entity changed, query left out
        onePrice("SELECT * FROM RunLedger WHERE tier = 'pro' AND balance > 565", "45 reads, 6 writes, 0 deletes");
    }

    /**
     * Dry-runs the increment over {@code gql} (blank: Account) in the Mapper tab, sends it to the Run tab and runs it:
     * the dry run, the confirmation Start asks and the finished job give the same operations and price.
     */
    private static void onePrice(String gql, String operations) {
        app.select("Account");
        Fx.waitUntil(60, () -> app.kind("Account").countProperty().get() != null);
        on(() -> {
            mapper.load(INCREMENT);
            mapper.gqlProperty().set(gql);
            mapper.dryRun();
        });
        Fx.waitUntil(60, () -> Fx.get(() -> mapper.dryRunSummaryProperty().get()).contains("Nothing was written"));
        String dryRun = Fx.get(() -> mapper.dryRunSummaryProperty().get());
        on(mapper::sendToRun);
        Consent consent = Fx.get(() -> run.startPrice().consent());
        on(run::start);
        Fx.waitUntil(60, () -> summary().contains(" done: "));
        Matcher finished = Pattern.compile("Operations: (.+)\\.$").matcher(summary());
        assertThat(finished.find()).as(summary()).isTrue();
        String price = finished.group(1);
        assertThat(price).startsWith(operations + " ≈ ");
        assertThat(dryRun).as("the dry run's whole job").contains(": " + price + ".");
        assertThat(consent.estimate()).as("the confirmation before Start").endsWith(": " + price);
    }
}
