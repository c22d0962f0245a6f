package io.keyranger.backup;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Value;
import io.keyranger.datastore.EntityJson;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** One entity as a backup holds it and as it lives, property by property: what {@code diff --key} and the app show. */
public final class SideBySide {
    private SideBySide() {
    }

    /**
     * One entity's properties side by side: name, as exported, as live, and whether they differ (every property of
     * either, sorted by name; a value absent on one side is "(missing)").
     */
    public record Row(String property, String exported, String live, boolean differs) {
    }

    public static List<Row> of(Entity exported, Entity live) {
        TreeSet<String> names = new TreeSet<>();
        if (exported != null) {
            names.addAll(exported.getNames());
        }
        if (live != null) {
            names.addAll(live.getNames());
        }
        List<Row> rows = new ArrayList<>();
        for (String name : names) {
            Value<?> a = exported != null && exported.contains(name) ? exported.getValue(name) : null;
            Value<?> b = live != null && live.contains(name) ? live.getValue(name) : null;
            rows.add(new Row(name, show(a), show(b), a == null ? b != null : !a.equals(b)));
        }
        return rows;
    }

    private static String show(Value<?> value) {
        return value == null ? "(missing)" : EntityJson.cell(value) + (value.excludeFromIndexes() ? " (unindexed)" : "");
    }

}
