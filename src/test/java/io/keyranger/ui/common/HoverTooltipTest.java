package io.keyranger.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.support.Fx;
import java.util.List;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.VBox;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * Cells with {@link FittedColumns#showFullValueAsTooltip}: filling a table makes no tooltip (each is a popup window
 * with a scene of its own); the pointer on a cell gives it one with the cell's whole value, which shows; a new value
 * under the pointer is the tooltip's, and an emptied cell keeps none.
 */
class HoverTooltipTest {
    private static final ObservableList<String> ROWS = FXCollections.observableArrayList();
    private static TableView<String> table;
    private static Label count;
    private static volatile String countedBy;
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void show() throws Exception {
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupSceneRoot(() -> {
            table = new TableView<>(ROWS);
            TableColumn<String, String> value = new TableColumn<>("Value");
            value.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue()));
            value.setPrefWidth(120); // narrower than the values: the tooltip is how they are read whole
            FittedColumns.showFullValueAsTooltip(value);
            table.getColumns().add(value);
            count = new Label("Account  20,000");
            HoverTooltip.install(count, () -> countedBy); // a tooltip that is not the label's own text
            VBox root = new VBox(table, count);
            root.setPrefSize(400, 340);
            return root;
        });
        FxToolkit.setupStage(stage -> stage.show());
    }

    @AfterAll
    static void close() throws Exception {
        FxToolkit.cleanupStages();
    }

    @Test
    void aCellGetsItsTooltipOnHoverAndItFollowsTheValue() throws Exception {
        List<String> values = List.of("Account:customer-000001/Order:2026-11-23-000001", "Account:2", "Account:3");
        // the pointer waits on the header before there are rows, so that reaching the first row crosses no other
        robot.moveTo(robot.point(table).atPosition(Pos.TOP_LEFT)).moveBy(30, 8);
        Fx.get(() -> ROWS.setAll(values));
        Fx.waitUntil(10, () -> cells().stream().filter(c -> !c.isEmpty()).count() == values.size());
        assertThat(Fx.get(() -> cells().stream().map(TableCell::getTooltip).filter(t -> t != null).count()))
                .as("tooltips made by filling the table").isZero();

        TableCell<?, ?> first = Fx.get(() -> cells().stream().filter(c -> values.get(0).equals(c.getItem()))
                .findFirst().orElseThrow());
        robot.moveTo(first).moveBy(5, 0).moveBy(5, 0); // moves after the entry: a tooltip starts its delay on one
        Fx.waitUntil(10, () -> first.getTooltip() != null && first.getTooltip().isShowing());
        assertThat(Fx.get(() -> first.getTooltip().getText())).isEqualTo(values.get(0));
        assertThat(Fx.get(() -> cells().stream().map(TableCell::getTooltip).filter(t -> t != null).count()))
                .as("tooltips after hovering one cell").isEqualTo(1);

        // a new value under the pointer: the cell that shows it (the table may have swapped cells) says it whole
        String changed = "Account:customer-000009/Order:2026-11-24-000002";
        Fx.get(() -> ROWS.set(0, changed));
        robot.moveBy(-3, 0).moveBy(-3, 0);
        Fx.waitUntil(10, () -> cells().stream().anyMatch(c -> changed.equals(c.getItem()) && c.getTooltip() != null
                && changed.equals(c.getTooltip().getText())));
        // emptied: no tooltip left with nothing to say
        Fx.get(() -> ROWS.set(0, ""));
        robot.moveBy(3, 0);
        Fx.waitUntil(10, () -> cells().stream().filter(c -> c.getTooltip() != null)
                .allMatch(c -> c.getText() != null && c.getText().equals(c.getTooltip().getText())));
        assertThat(Fx.get(() -> cells().stream().filter(c -> "".equals(c.getItem()) && c.getTooltip() != null)
                .count())).isZero();
        robot.moveTo(robot.point(table).atPosition(Pos.BOTTOM_RIGHT)).moveBy(-20, -20);
    }

    @Test
    void aTooltipOfOtherTextIsMadeOnHoverAndBroughtUpToDateWhenAsked() throws Exception {
        countedBy = null; // not counted yet when the pointer arrives: nothing to say
        robot.moveTo(count).moveBy(3, 0);
        Fx.waitUntil(10, count::isHover);
        assertThat(Fx.get(count::getTooltip)).isNull();
        countedBy = "Counted by statistics"; // the count arrives under the pointer
        Fx.get(() -> {
            HoverTooltip.update(count);
            return null;
        });
        robot.moveBy(3, 0).moveBy(3, 0);
        Fx.waitUntil(10, () -> count.getTooltip() != null && count.getTooltip().isShowing());
        assertThat(Fx.get(() -> count.getTooltip().getText())).isEqualTo("Counted by statistics");
        countedBy = "Counted by a keys-only query";
        Fx.get(() -> {
            HoverTooltip.update(count);
            return null;
        });
        assertThat(Fx.get(() -> count.getTooltip().getText())).isEqualTo("Counted by a keys-only query");
        countedBy = null;
        Fx.get(() -> {
            HoverTooltip.update(count);
            return null;
        });
        assertThat(Fx.get(count::getTooltip)).isNull();
        robot.moveTo(robot.point(table).atPosition(Pos.BOTTOM_RIGHT)).moveBy(-20, -20);
    }

    private static List<TableCell<?, ?>> cells() {
        return table.lookupAll(".table-cell").stream().filter(n -> n instanceof TableCell<?, ?>)
                .<TableCell<?, ?>>map(n -> (TableCell<?, ?>) n).filter(c -> c.getTableColumn() != null).toList();
    }
}
