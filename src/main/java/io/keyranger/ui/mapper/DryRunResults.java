package io.keyranger.ui.mapper;

import io.keyranger.cost.PriceTable;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.summary.DryRunSummary;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the Mapper tab shows of a dry run: its rows and summary, and the spec they answer, so that nothing shown
 * ever answers a spec other than the one on screen.
 */
final class DryRunResults {
    private final ObservableList<DryRunner.Change> changes = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper("");
    /** The spec whose dry run shows, or null when none does. */
    private String shownSpec;

    void clear() {
        shownSpec = null;
        changes.clear();
        summary.set("");
    }

    /** Clears what shows unless it answers {@code spec}. */
    void clearUnlessOf(String spec) {
        if (!spec.equals(shownSpec)) {
            clear();
        }
    }

    /** A line in place of results: what is running, or why nothing ran. */
    void say(String text) {
        summary.set(text);
    }

    /** A dry run of {@code specJson}: its warnings, the changes per entity, and the whole job's cost. */
    void show(DryRunner.Result result, MapperSpec spec, String specJson, PriceTable prices) {
        List<DryRunner.Change> rows = new ArrayList<>(result.changes());
        result.deletes().forEach(k -> rows.add(new DryRunner.Change(k, "(entity)", "exists", "would be deleted")));
        result.copies().forEach(k -> rows.add(new DryRunner.Change(k, "(entity)", "", "would be written")));
        result.problems().forEach(p -> rows.add(new DryRunner.Change(p.key(), "(entity)", "",
                "would be skipped: " + p.reason())));
        changes.setAll(rows);
        shownSpec = specJson;
        summary.set(String.join(" ", result.warnings().stream().map(w -> "Warning: " + w).toList())
                + (result.warnings().isEmpty() ? "" : "\n") + String.format("Nothing was written. On %s: %d changes, "
                        + "%d skipped%s.", DryRunSummary.sample(result), result.changes().size(), result.skipped(),
                result.counters().isEmpty() ? "" : ", counters " + result.counters())
                + " " + String.join(" ", DryRunSummary.wholeJob(result, prices))
                + (spec.query() == null ? "" : " Query: " + String.join(" ", spec.query().explain())));
    }

    ObservableList<DryRunner.Change> changes() {
        return changes;
    }

    ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }
}
