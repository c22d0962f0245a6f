package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.StructuredQuery;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.datastore.Session;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.support.HeldRead;
import io.keyranger.ui.common.KindTarget;
import io.keyranger.ui.main.MainViewModel;
import javafx.scene.control.ComboBox;
import org.junit.jupiter.api.Test;

/**
 * A dry run shows how far it got in the status bar, as other long work does, and its Cancel there ends it: it is said
 * cancelled and starts no read after. The dry run is held while it sizes the kind (before it counts the kind's keys,
 * the slow part on the legacy emulator, whose 20,000 demo accounts took 90 s), by a gate on the session's reads.
 */
class DryRunProgressTest extends DemoWindowTest {

    @Test
    void aDryRunShowsWhatItReadAndCancelEndsIt() throws Exception {
        MainViewModel model = ((KeyRangerApp) app).model();
        Fx.waitUntil(60, () -> !model.status().busyProperty().get()); // the kinds' counts done: the bar is free
        clickTab("Mapper");
        ComboBox<Template> template = robot.lookup("#templateChoice").queryComboBox();
        Fx.on(() -> template.setValue(Mappers.template("count")));
        // after the sample, the size of the kind: its scatter sample is held, then its keys would be counted
        HeldRead gate = HeldRead.on("run", "fetch").when(args -> args[0] instanceof StructuredQuery<?> query
                && query.getOrderBy().stream().anyMatch(order -> order.getProperty().equals("__scatter__")));
        Session session = Fx.get(() -> model.sessionProperty().get());
        Fx.on(() -> model.mapper().targetProperty().set(new KindTarget(session.wrap(gate::wrap), "", "Account",
                () -> null)));
        gate.arm();
        robot.clickOn("#dryRun");

        Fx.waitUntil(30, gate::holding);
        Fx.waitUntil(10, () -> labelText("#statusMessage").matches("Dry run on Account: \\d+ read…"));
        assertThat(Fx.get(() -> robot.lookup("#cancelTask").query().isVisible())).isTrue();
        assertThat(labelText("#dryRunSummary")).startsWith("Dry run on Account");

        robot.clickOn("#cancelTask");
        Fx.waitUntil(10, () -> labelText("#statusMessage").equals("Dry run: cancelled"));
        assertThat(labelText("#dryRunSummary")).startsWith("Dry run cancelled");
        int calls = gate.calls();
        gate.release();
        Thread.sleep(1_000);
        assertThat(gate.calls()).as("no read starts after Cancel").isEqualTo(calls);
        assertThat(labelText("#dryRunSummary")).startsWith("Dry run cancelled");
        assertThat(Fx.get(() -> robot.lookup("#cancelTask").query().isVisible())).isFalse();
    }
}
