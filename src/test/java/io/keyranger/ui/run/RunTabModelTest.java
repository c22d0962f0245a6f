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
        // 60 changes and at least 4 undo records: on the legacy emulator a record holds 19 images at most
        onePrice("", "60 reads, 64 writes, 0 deletes", 60);
    }

    @Test
    @Order(3)
    void anIncrementOverAQueryHasTheDryRunsPriceNotOneForTheSelectedKindAsIfAllChanged() {
        // before, the confirmation priced the selected kind (Account, 60) as if every entity changed, query left out
        onePrice("SELECT * FROM RunLedger WHERE tier = 'pro' AND balance > 565", "45 reads, 4 writes, 0 deletes", 3);
    }

    /** A price's operations: reads, writes, deletes. */
    private static final Pattern OPERATIONS = Pattern.compile("^(\\d+) reads, (\\d+) writes, (\\d+) deletes ≈ ");

    /**
     * Dry-runs the increment over {@code gql} (blank: Account) in the Mapper tab, sends it to the Run tab and runs it:
     * the dry run and the confirmation Start asks give the same operations and price ({@code estimate}), and the
     * finished job the same reads, deletes and {@code changes}, with the undo records its commits kept: one or more
     * a commit, as many as the estimate's or more (the estimate cannot know how the job's commits fall), never one an
     * entity.
     */
    private static void onePrice(String gql, String estimate, long changes) {
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
        String estimated = consent.estimate().substring(consent.estimate().lastIndexOf(": ") + 2);
        assertThat(estimated).as("the confirmation before Start").startsWith(estimate + " ≈ ");
        assertThat(dryRun).as("the dry run's whole job").contains(": " + estimated + ".");
        Matcher done = OPERATIONS.matcher(price);
        Matcher before = OPERATIONS.matcher(estimated);
        assertThat(done.find() && before.find()).as(price + " / " + estimated).isTrue();
        assertThat(done.group(1)).as("reads").isEqualTo(before.group(1));
        assertThat(done.group(3)).as("deletes").isEqualTo(before.group(3));
        assertThat(Long.parseLong(done.group(2))).as("the changes and their undo records: " + price)
                .isBetween(Long.parseLong(before.group(2)), changes + changes - 1);
    }
}
