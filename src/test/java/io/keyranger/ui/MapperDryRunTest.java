package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.ListCell;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;

/**
 * The Mapper tab's dry run over a GQL query whose inequality is applied on the client, in the real window: with the
 * few matches beyond the sample, it says how many match, in the same words as the command line, never "0 writes".
 */
class MapperDryRunTest extends DemoWindowTest {
    @Test
    void aDryRunOverAClientSideConditionSaysHowManyMatchNotZeroWrites() {
        Datastore datastore = demoDatastore();
        List<Entity> ledger = new ArrayList<>();
        for (long id = 1; id <= 60; id++) { // 45 pro; of them, 57, 58 and 59 have a balance over 565
            ledger.add(Entity.newBuilder(datastore.newKeyFactory().setKind("UiLedger").newKey(id))
                    .set("tier", id % 4 == 0 ? "free" : "pro").set("balance", id * 10).build());
        }
        SharedEmulator.putAll(datastore, ledger);

        clickTab("Mapper");
        robot.clickOn(robot.lookup("#examples .list-cell").match(n -> "Add free credit".equals(
                ((ListCell<?>) n).getText())).queryAs(Node.class));
        setText("#mapperGql", "SELECT * FROM UiLedger WHERE tier = 'pro' AND balance > 565");
        robot.clickOn("#dryRun");
        Fx.waitUntil(60, () -> labelText("#dryRunSummary").contains("Nothing was written"));
        String summary = labelText("#dryRunSummary");
        assertThat(summary).as(summary).doesNotContain(" 0 writes")
                .contains("On 45 entities, 3 of them matching balance > 565")
                .contains("Whole job, over 45 entities (exact, by a keys-only scan): 45 reads, 6 writes, 0 deletes")
                .contains("balance > 565 is checked on the client: 3 of the 45 entities that tier = 'pro' lets "
                        + "through match (every one was read: an exact count).");
        TableView<?> table = robot.lookup("#dryRunTable").queryTableView();
        assertThat(Fx.get(() -> table.getItems().size())).as("the three matches' changes").isEqualTo(3);
    }
}
