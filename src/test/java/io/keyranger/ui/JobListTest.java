package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.job.ListedJob;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.support.InProcessCli;
import java.nio.file.Files;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Tooltip;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/**
 * The Run tab's job list keeps up without Refresh (a job the CLI ran beside the window shows up, and the list is read
 * again when the tab comes back into sight); at a laptop's window size each row shows the job's id whole, and its
 * tooltip wraps well inside a 1920-px screen.
 */
class JobListTest extends DemoWindowTest {

    @BeforeEach
    void laptopSize() {
        Stage stage = FxToolkit.toolkitContext().getRegisteredStage();
        Fx.on(() -> {
            stage.setMaximized(false);
            stage.setWidth(1280);
            stage.setHeight(800);
        });
    }

    @Test
    void aJobRunFromTheCliShowsUpWithoutRefreshWithItsIdWholeAndAWrappedTooltip() throws Exception {
        clickTab("Run");
        String job = "from-the-cli-beside-the-window-count";
        ListView<ListedJob> jobs = robot.lookup("#pastJobs").queryListView();
        assertThat(Fx.get(() -> jobs.getItems().stream().noneMatch(j -> j.spec().jobId().equals(job)))).isTrue();

        InProcessCli beside = new InProcessCli(configDir, ConnectionSpec.emulator(
                labelText("#connectionStatus").replaceAll("^emulator (\\S+) / .*$", "$1"), "demo-project",
                ServerType.EMULATOR));
        InProcessCli.Result run = beside.run("run", "--kind", "Account", "--job-id", job, "--shards", "2",
                "--mapper", Files.writeString(configDir.resolve("count.json"), "{\"template\":\"count\"}")
                        .toString());
        assertThat(run.exitCode()).as(run.err()).isZero();

        Fx.waitUntil(15, () -> jobs.getItems().stream().anyMatch(j -> j.spec().jobId().equals(job)));
        // the row and its id read in one turn of the FX thread: a listing read again meanwhile moves items between
        // the list's cells, and a cell's drawn text follows its item at the next layout
        try {
            Fx.waitUntil(5, () -> job.equals(Fx.get(() -> shownId(jobs, job))));
        } catch (AssertionError e) {
            assertThat(Fx.get(() -> shownId(jobs, job))).as("the id, not cut").isEqualTo(job);
        }
        ListCell<?> row = Fx.get(() -> rowOf(jobs, job));

        robot.moveTo(row);
        Fx.waitUntil(5, () -> row.getTooltip() != null);
        Tooltip tip = row.getTooltip();
        assertThat(Fx.get(tip::getText)).contains(job);
        assertThat(Fx.get(tip::isWrapText)).isTrue();
        assertThat(Fx.get(tip::getMaxWidth)).isBetween(100.0, 1000.0);
    }

    @Test
    void theListIsReadAgainWhenTheTabComesBackIntoSight() throws Exception {
        clickTab("Run");
        ListView<ListedJob> jobs = robot.lookup("#pastJobs").queryListView();
        clickTab("Entities");
        String job = "while-the-run-tab-was-hidden";
        InProcessCli beside = new InProcessCli(configDir, ConnectionSpec.emulator(
                labelText("#connectionStatus").replaceAll("^emulator (\\S+) / .*$", "$1"), "demo-project",
                ServerType.EMULATOR));
        InProcessCli.Result run = beside.run("run", "--kind", "Account", "--job-id", job, "--shards", "2",
                "--mapper", Files.writeString(configDir.resolve("count2.json"), "{\"template\":\"count\"}")
                        .toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        Thread.sleep(1_000);
        assertThat(Fx.get(() -> jobs.getItems().stream().noneMatch(j -> j.spec().jobId().equals(job))))
                .as("not read while out of sight").isTrue();
        clickTab("Run");
        Fx.waitUntil(3, () -> jobs.getItems().stream().anyMatch(j -> j.spec().jobId().equals(job)));
    }

    /** The list's cell that shows {@code job} now, or null. */
    private static ListCell<?> rowOf(ListView<ListedJob> jobs, String job) {
        return jobs.lookupAll(".list-cell").stream().map(n -> (ListCell<?>) n)
                .filter(c -> c.getItem() instanceof ListedJob j && j.spec().jobId().equals(job)).findFirst()
                .orElse(null);
    }

    /** The id as the cell that shows {@code job} draws it (cut with "…" if it does not fit), or null. */
    private static String shownId(ListView<ListedJob> jobs, String job) {
        ListCell<?> row = rowOf(jobs, job);
        if (row == null || !(row.lookup(".job-id") instanceof Label id) || !(id.lookup(".text") instanceof Text text)) {
            return null;
        }
        return text.getText();
    }
}
