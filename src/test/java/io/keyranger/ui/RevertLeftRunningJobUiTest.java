package io.keyranger.ui;

import io.keyranger.job.ListedJob;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.PipelineJobs;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.cells.PageWork;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import java.util.HashMap;
import java.util.Map;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.DialogPane;
import javafx.scene.control.ListView;
import org.junit.jupiter.api.Test;

/**
 * A job left running that no runner holds (here a Beam launch that did not wait for its pipeline) is reverted from
 * the Run tab's job list, and the tab says what the revert did to it.
 */
class RevertLeftRunningJobUiTest extends DemoWindowTest {
    @Test
    void anInterruptedJobIsRevertedFromTheJobListAndTheTabSaysItWasLeftRunning() {
        Datastore datastore = demoDatastore();
        Map<Key, Entity> before = accounts(datastore);
        MapperSpec mapperSpec = MapperSpec.parse("{\"template\":\"set\",\"property\":\"flag\",\"value\":\"x\"}");
        JobSpec spec = new JobSpec("detached", "", "Account", mapperSpec, 4, 4, 20, 0);
        PipelineJobs job = PipelineJobs.createOrOpen(datastore, KeyOrder.EMULATOR, spec, PipelineJobs.BEAM,
                Cancellation.NEVER);
        PageMapper mapper = Mappers.create(mapperSpec);
        new PageLoop(new PageWork(datastore, spec, KeyOrder.EMULATOR, ServerLimits.EMULATOR, mapper, job.cells(),
                new CellCommitter(datastore, KeyOrder.EMULATOR, mapper, spec.jobId(), job.cells()),
                new Retries.Simple(5, 5, 200, 60_000))).process(new ConcurrentRangeTracker(
                        job.cells().startingRanges(spec.shards()).get(0), job.cells(), 20), outcome -> { });
        job.detach(); // the launcher returned; no runner holds the job while its pipeline would run
        assertThat(accounts(datastore)).isNotEqualTo(before);

        clickTab("Run");
        Fx.waitUntil(10, () -> !robot.lookup("#refreshJobs").queryButton().isDisabled());
        Fx.get(() -> {
            robot.lookup("#refreshJobs").queryButton().fire();
            return null;
        });
        ListView<ListedJob> jobs = robot.lookup("#pastJobs").queryListView();
        Fx.waitUntil(20, () -> Fx.get(() -> jobs.getItems().stream()
                .anyMatch(j -> j.spec().jobId().equals("detached"))));
        Fx.get(() -> {
            jobs.getSelectionModel().select(jobs.getItems().stream()
                    .filter(j -> j.spec().jobId().equals("detached")).findFirst().orElseThrow());
            return null;
        });
        Fx.waitUntil(10, () -> !robot.lookup("#revertJob").queryButton().isDisabled());
        Platform.runLater(() -> robot.lookup("#revertJob").queryButton().fire()); // its confirmation waits for a click
        Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isPresent());
        robot.clickOn(robot.lookup(".dialog-pane .button").match(b -> "Revert".equals(((Button) b).getText()))
                .queryButton());
        Fx.waitUntil(60, () -> summary().startsWith("Job revert-detached") && summary().contains(" done: "));
        assertThat(summary()).contains("Job detached was left running and no runner holds its lease");
        assertThat(accounts(datastore)).as("every Account as it was before the job").isEqualTo(before);
        assertThat(robot.lookup(".dialog-pane").tryQuery().map(d -> ((DialogPane) d).getContentText()))
                .as("no error dialog").isEmpty();
    }

    private String summary() {
        return labelText("#runSummary");
    }

    private static Map<Key, Entity> accounts(Datastore datastore) {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build())
                .forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }
}
