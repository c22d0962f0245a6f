package io.keyranger.ui.common;

import javafx.geometry.Pos;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.text.Text;

/**
 * A table cell whose text wraps onto as many lines as it needs within its column, so a long value reads whole: its
 * row grows to fit (a cell's own wrapped text keeps the row one line high and ends in "…"). The whole value is also
 * its tooltip, made on hover ({@link HoverTooltip}).
 */
public final class WrappingCell<S> extends TableCell<S, String> {
    /** The cell's padding and border beside the text, which the wrapping width leaves out. */
    private static final double PADDING = 24;

    private final Text text = new Text();

    public WrappingCell(TableColumn<S, String> column) {
        text.wrappingWidthProperty().bind(column.widthProperty().subtract(PADDING));
        text.fillProperty().bind(textFillProperty()); // the theme's colour, selected rows' too
        text.fontProperty().bind(fontProperty());
        setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        setAlignment(Pos.CENTER_LEFT);
        HoverTooltip.install(this, () -> isEmpty() ? null : getItem());
    }

    @Override
    protected void updateItem(String item, boolean empty) {
        super.updateItem(item, empty);
        text.setText(empty || item == null ? "" : item);
        setGraphic(empty || item == null ? null : text);
        HoverTooltip.update(this);
    }
}
