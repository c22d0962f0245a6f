package io.keyranger.ui.run;

import static io.keyranger.support.Fx.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.backup.RestoreSpec;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.job.RestoreMode;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.Fx;
import io.keyranger.support.WindowlessApp;
import io.keyranger.ui.backups.RestoreModel;
import io.keyranger.ui.mapper.MapperViewModel;
import java.nio.file.Files;
import io.keyranger.job.JobSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Run tab's view model on the demo's data, no window: a job handed over (a restore from the Backups tab, the
 * Mapper tab's spec) shows itself, not started, and nothing of the job shown before; a job that ran, or was inspected,
 * never has its tree say "No job yet" beside its summary; a job's start clears the chart.
 */
class RunTabHandOverTest {
    private static final String INCREMENT = "{\"template\": \"increment\", \"property\": \"balance\", \"amount\": 10}";
    private static WindowlessApp app;
    private static RunViewModel run;
    private static Path export;

    @BeforeAll
    static void demoData() throws Exception {
        ConnectionSpec conn = WindowlessApp.demoData("run-hand-over", 60);
        export = EmulatorExports.export(conn, Files.createTempDirectory("keyranger-hand-over"),
                "{\"kinds\": [\"Account\"]}");
        app = WindowlessApp.connectedTo(conn);
        run = app.model().run();
    }

    @AfterAll
    static void close() {
        app.close();
    }


    /** What the tab shows of its job: summary, tree (or what its empty tree says), totals, timing, chart. */
    private record Shown(String summary, int rows, String emptyTree, String totals, String timing, int points) {
        static Shown now() {
            return Fx.get(() -> new Shown(run.status().summaryProperty().get(), run.roots().size(),
                    run.status().emptyTreeProperty().get(), run.status().totalsTextProperty().get(),
                    run.status().timingTextProperty().get(), run.throughput().size()));
        }

        /** The tree shows rows, or its placeholder says something other than that there is no job. */
        boolean treeBesideAJob() {
            return rows > 0 || !emptyTree.equals("No job yet");
        }
    }

    private static Shown runToEnd(Runnable start) {
        on(start);
        Fx.waitUntil(60, () -> Shown.now().summary().contains(" done: "));
        return Shown.now();
    }

    @Test
    void aJobHandedOverShowsItselfNotStartedAndNothingOfTheJobBefore() {
        app.select("Account");
        // a count of 60 at 20 a second: three seconds, so the chart has points
        on(() -> {
            run.form().qpsProperty().set(20);
            run.form().pageSizeProperty().set(10);
        });
        Shown counted = runToEnd(run::start);
        assertThat(counted.rows()).isPositive();
        assertThat(counted.points()).as("the count's chart").isPositive();
        assertThat(counted.totals()).contains("read 60");
        String countJob = counted.summary().substring("Job ".length(), counted.summary().indexOf(' ', 4));

        // Backups → Restore… hands the Run tab a restore: before, the count's tree, totals, chart and summary stayed
        on(() -> run.form().qpsProperty().set(0));
        RestoreSpec restore = new RestoreSpec(export, "", "Account", RestoreMode.SKIP_CHANGED, null, null, true);
        on(() -> app.model().prepareRestore(new RestoreModel.RestoreRequest(app.model().sessionProperty().get(), "",
                "Account", restore.job(null))));
        Shown handed = Shown.now();
        assertThat(handed.rows()).as("the count's tree").isZero();
        assertThat(handed.points()).as("the count's chart").isZero();
        assertThat(handed.totals()).as("the count's totals").isEmpty();
        assertThat(handed.timing()).as("the count's time").isEmpty();
        assertThat(handed.summary()).as("about the restore").doesNotContain(countJob).startsWith("Start runs import")
                .endsWith(" over Account.");
        assertThat(handed.emptyTree()).isEqualTo("Restore of Account from " + export.toAbsolutePath()
                + ": not started; Start runs it.");

        // Start runs it; once it ran its tree never says there is no job beside its summary, nor once inspected
        on(run::start);
        assertThat(Shown.now().points()).as("the chart at the restore's start").isZero();
        assertThat(Shown.now().treeBesideAJob()).as("while it starts").isTrue();
        Shown restored = runToEnd(() -> { });
        assertThat(restored.treeBesideAJob()).as(restored.toString()).isTrue();
        String restoreJob = restored.summary().substring("Job ".length(), restored.summary().indexOf(' ', 4));
        Fx.waitUntil(30, () -> Fx.get(() -> run.pastJobs().stream().anyMatch(j -> j.spec().jobId()
                .equals(restoreJob))));
        on(() -> run.inspect(restoreJob));
        Fx.waitUntil(30, () -> Shown.now().summary().startsWith("Job " + restoreJob + " (stored"));
        Shown inspected = Shown.now();
        assertThat(inspected.treeBesideAJob()).as(inspected.toString()).isTrue();

        // the Mapper tab's spec handed over: the inspected restore goes, the increment is named
        MapperViewModel mapper = app.model().mapper();
        on(() -> {
            mapper.load(INCREMENT);
            mapper.gqlProperty().set("");
            mapper.sendToRun();
        });
        Shown sent = Shown.now();
        assertThat(List.of(sent.rows(), sent.points())).containsOnly(0);
        assertThat(sent.totals()).isEmpty();
        assertThat(sent.summary()).isEqualTo("Start runs increment · property balance · amount 10 over Account.");
        assertThat(sent.emptyTree()).isEqualTo("increment · property balance · amount 10 over Account: not started; "
                + "Start runs it.");

        // a job loaded from the Jobs list (Inspect) shows that job again
        on(() -> run.inspect(countJob));
        Fx.waitUntil(30, () -> Shown.now().summary().startsWith("Job " + countJob + " (stored"));
        assertThat(Shown.now().rows()).isPositive();
        assertThat(app.errors()).isEmpty();
    }

    @Test
    void aRestoreHandedOverRunsUnderItsOwnIdWithItsOwnSettings() {
        // before, the hand-over passed the spec's mapper as text: the restore ran under a new id with the form's
        // shards, workers and page size
        app.select("Account");
        on(() -> {
            run.form().shardsProperty().set(16);
            run.form().workersProperty().set(8);
            run.form().pageSizeProperty().set(200);
            run.form().qpsProperty().set(0);
        });
        JobSpec made = new RestoreSpec(export, "", "Account", RestoreMode.SKIP_CHANGED, null, null, true)
                .job("restore-kept");
        JobSpec handed = new JobSpec(made.jobId(), made.namespace(), made.kind(), made.mapper(), 3, 2, 25, 0);
        on(() -> app.model().prepareRestore(new RestoreModel.RestoreRequest(app.model().sessionProperty().get(), "",
                "Account", handed)));
        assertThat(Fx.get(() -> List.of(run.form().shardsProperty().get(), run.form().workersProperty().get(),
                run.form().pageSizeProperty().get()))).as("the bar shows the restore's own settings")
                .containsExactly(3, 2, 25);
        Shown restored = runToEnd(run::start);
        assertThat(restored.summary()).startsWith("Job restore-kept done:");
        Fx.waitUntil(30, () -> Fx.get(() -> run.pastJobs().stream().anyMatch(j -> j.spec().jobId()
                .equals("restore-kept"))));
        JobSpec ran = Fx.get(() -> run.pastJobs().stream().map(j -> j.spec())
                .filter(s -> s.jobId().equals("restore-kept")).findFirst().orElseThrow());
        assertThat(List.of(ran.shards(), ran.workers(), ran.pageSize())).containsExactly(3, 2, 25);
        assertThat(app.errors()).isEmpty();
    }
}
