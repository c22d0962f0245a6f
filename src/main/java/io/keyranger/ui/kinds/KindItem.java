package io.keyranger.ui.kinds;

import io.keyranger.datastore.EntityCount;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;

/** A kind in the kind list, with its count once known. */
public final class KindItem {
    private final String name;
    private final ObjectProperty<EntityCount> count = new SimpleObjectProperty<>();

    public KindItem(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public ObjectProperty<EntityCount> countProperty() {
        return count;
    }

    /** "20,000", or "…" while counting. */
    public String countText() {
        EntityCount value = count.get();
        return value == null ? "…" : String.format("%,d", value.count());
    }

    @Override
    public String toString() {
        return name;
    }
}
