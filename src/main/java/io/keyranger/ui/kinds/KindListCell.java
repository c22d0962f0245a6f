package io.keyranger.ui.kinds;

import io.keyranger.datastore.EntityCount;
import io.keyranger.ui.common.HoverTooltip;
import javafx.beans.value.ChangeListener;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;

/** A kind with its entity count on the right, and how the count was obtained in the tooltip. */
public final class KindListCell extends ListCell<KindItem> {
    private final Label name = new Label();
    private final Label count = new Label();
    private final HBox box;
    private final ChangeListener<EntityCount> onCount = (obs, old, value) -> refreshCount();
    private final ChangeListener<Number> onPartial = (obs, old, value) -> refreshCount();
    private KindItem shown;

    public KindListCell() {
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        count.getStyleClass().addAll("text-muted", "kind-count");
        box = new HBox(8, name, spacer, count);
        HoverTooltip.install(this, () -> {
            EntityCount value = shown == null ? null : shown.countProperty().get();
            return value == null ? null : "Counted by " + value.method().label();
        });
    }

    @Override
    protected void updateItem(KindItem item, boolean empty) {
        super.updateItem(item, empty);
        if (shown != null) {
            shown.countProperty().removeListener(onCount);
            shown.partialCountProperty().removeListener(onPartial);
        }
        shown = empty ? null : item;
        if (shown == null) {
            setGraphic(null);
            HoverTooltip.update(this);
            return;
        }
        name.setText(shown.name());
        shown.countProperty().addListener(onCount);
        shown.partialCountProperty().addListener(onPartial);
        refreshCount();
        setGraphic(box);
    }

    private void refreshCount() {
        count.setText(shown.countText());
        HoverTooltip.update(this);
    }
}
