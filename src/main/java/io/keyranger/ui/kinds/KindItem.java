package io.keyranger.ui.kinds;

import io.keyranger.datastore.EntityCount;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleObjectProperty;

/** A kind in the kind list, with its count once known. */
public final class KindItem {
    private final String name;
    private final ObjectProperty<EntityCount> count = new SimpleObjectProperty<>();
    private final LongProperty partialCount = new SimpleLongProperty(-1);

    public KindItem(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public ObjectProperty<EntityCount> countProperty() {
        return count;
    }

    /** Keys counted so far while a scan runs; -1 before it starts. */
    public LongProperty partialCountProperty() {
        return partialCount;
    }

    /** "20,000" once counted, "12,000…" while counting, "…" before. */
    public String countText() {
        EntityCount value = count.get();
        if (value != null) {
            return String.format("%,d", value.count());
        }
        return partialCount.get() < 0 ? "…" : String.format("%,d…", partialCount.get());
    }

    @Override
    public String toString() {
        return name;
    }
}
