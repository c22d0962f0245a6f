package io.keyranger.ui.common;

import javafx.application.Platform;
import javafx.collections.ListChangeListener;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.Text;

/**
 * Table columns as wide as their text: every column is measured over the rows the table holds (a page of at most a
 * few hundred) in the cells' font, up to a cap, whenever the rows or the columns change. Cells made by
 * {@link #showFullValueAsTooltip} carry their whole value as a tooltip (made on hover), so a value wider than the cap
 * can be read.
 */
public final class FittedColumns {
    /** Wide enough for a long key with a parent; wider would push the other columns out of sight. */
    public static final double MAX_WIDTH = 420;
    /** Cell padding and the column's border, beside the text. */
    private static final double PADDING = 24;
    /** Beside a header's text: the label's padding (0.5em a side) and the sort arrow (15px). */
    private static final double HEADER_EXTRA = 30;
    /** The vertical scroll bar a table of many rows shows beside its columns. */
    private static final double SCROLL_BAR = 16;

    private FittedColumns() {
    }

    /** Cells that show the value and carry it whole as a tooltip. */
    public static <S> void showFullValueAsTooltip(TableColumn<S, String> column) {
        var plain = column.getCellFactory(); // the column's own cells, showing the text
        // the tooltip made on hover: one per cell, made as rows fill, would be a popup scene each
        column.setCellFactory(c -> {
            var cell = plain.call(c);
            // every cell of a row on one line, set here rather than left to the theme's style: cells a new kind's
            // columns made in the middle of a layout kept the default alignment, and sat higher than the key's
            cell.setAlignment(Pos.CENTER_LEFT);
            return HoverTooltip.ofText(cell);
        });
    }

    /** Sizes every column of the table to its text now and whenever its rows or columns change. */
    public static <S> void fitToText(TableView<S> table) {
        Runnable fit = () -> table.getColumns().forEach(column -> column.setPrefWidth(widthFor(table, column)));
        fit.run();
        Runnable fitTwice = () -> {
            fit.run();
            afterNextLayout(table, fit); // again once the rows have styled cells to take the font from
        };
        table.getItems().addListener((ListChangeListener<S>) change -> fitTwice.run());
        table.getColumns().addListener((ListChangeListener<TableColumn<S, ?>>) change -> fitTwice.run());
        table.skinProperty().addListener((obs, old, skin) -> afterNextLayout(table, fit));
    }

    private static void afterNextLayout(TableView<?> table, Runnable action) {
        Scene scene = table.getScene();
        if (scene == null) {
            return;
        }
        Runnable[] once = new Runnable[1];
        once[0] = () -> {
            scene.removePostLayoutPulseListener(once[0]);
            action.run();
        };
        scene.addPostLayoutPulseListener(once[0]);
        Platform.requestNextPulse();
    }

    /** The column's width for its text in the table's cell font; at least its header's, at most {@link #MAX_WIDTH}. */
    public static <S> double widthFor(TableView<S> table, TableColumn<S, ?> column) {
        Text measure = new Text();
        measure.setFont(cellFont(table));
        double widest = headerWidth(column);
        for (S row : table.getItems()) {
            Object value = column.getCellData(row);
            if (value != null && !value.toString().isEmpty()) {
                widest = Math.max(widest, width(measure, value.toString()) + PADDING);
            }
        }
        return Math.ceil(Math.min(MAX_WIDTH, widest));
    }

    /**
     * The width a column's header needs: its title in the header's font (the theme draws headers bold, at the
     * root's size, which only a shown header tells; before that, bold at the default size) and the room beside it.
     */
    public static double headerWidth(TableColumn<?, ?> column) {
        Text measure = new Text();
        measure.setFont(headerFont(column.getTableView()));
        return Math.ceil(width(measure, column.getText()) + HEADER_EXTRA);
    }

    /**
     * Keeps the column never narrower than its header ({@link #headerWidth}), which a narrow table would otherwise
     * cut: measured now and again once its table shows its header in the theme's font.
     */
    public static void neverNarrowerThanHeader(TableColumn<?, ?> column) {
        Runnable measure = () -> column.setMinWidth(headerWidth(column));
        measure.run();
        column.textProperty().addListener(obs -> measure.run());
        column.tableViewProperty().addListener((obs, old, table) -> {
            if (table != null) {
                measure.run();
                table.skinProperty().addListener((o, was, skin) -> afterNextLayout(table, measure));
            }
        });
    }

    /**
     * Keeps {@code column} as wide as its text ({@link #fitToText}) in a table that fits its columns to its width,
     * taking the room from the others down to their own minimums, and never narrower than its header: the column a
     * user reads first (the key) gives way last. Measured again as its text or the table's width changes.
     */
    public static <S> void givesWayLast(TableView<S> table, TableColumn<S, ?> column) {
        Runnable measure = () -> {
            double others = 0;
            for (TableColumn<S, ?> other : table.getColumns()) {
                others += other == column ? 0 : other.getMinWidth();
            }
            double room = table.getWidth() - table.snappedLeftInset() - table.snappedRightInset() - SCROLL_BAR - others;
            column.setMinWidth(Math.max(headerWidth(column), Math.min(column.getPrefWidth(), room)));
        };
        measure.run();
        column.prefWidthProperty().addListener(obs -> measure.run());
        table.widthProperty().addListener(obs -> measure.run());
        table.getColumns().forEach(other -> other.minWidthProperty().addListener(obs -> {
            if (other != column) {
                measure.run();
            }
        }));
        table.skinProperty().addListener((obs, old, skin) -> afterNextLayout(table, measure));
    }

    private static Font headerFont(TableView<?> table) {
        if (table != null) {
            for (Node node : table.lookupAll(".column-header .label")) {
                if (node instanceof Labeled header) {
                    return header.getFont();
                }
            }
        }
        Font regular = Font.getDefault();
        return Font.font(regular.getFamily(), FontWeight.BOLD, regular.getSize());
    }

    private static double width(Text measure, String value) {
        measure.setText(value);
        return measure.getLayoutBounds().getWidth();
    }

    /** The font the theme gives cells; before the first cell exists, the default (which themes set alike). */
    private static Font cellFont(TableView<?> table) {
        for (Node node : table.lookupAll(".table-cell")) {
            if (node instanceof Labeled cell) {
                return cell.getFont();
            }
        }
        return Font.getDefault();
    }
}
