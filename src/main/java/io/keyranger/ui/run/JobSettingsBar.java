package io.keyranger.ui.run;

import io.keyranger.ui.common.FieldValidation;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.Observable;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.TextField;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;
import org.controlsfx.control.CheckComboBox;

/**
 * The Run tab's job settings: the kinds and the query on one line, the numbers below it in pairs that wrap as a
 * whole. A number that is not valid is said beside its field and keeps Start off, as in the editor dialog.
 */
final class JobSettingsBar extends VBox {
    private final FieldValidation validation = new FieldValidation();
    private final List<Observable> dependencies = new ArrayList<>();
    private final ReadOnlyBooleanWrapper invalid = new ReadOnlyBooleanWrapper(false);

    JobSettingsBar(RunViewModel model) {
        super(6);
        TextField gql = new TextField();
        gql.setId("jobGql");
        gql.setPromptText("GQL, e.g. SELECT * FROM Account WHERE tier = 'pro' (blank: the whole kind)");
        gql.getStyleClass().add("monospace");
        gql.textProperty().bindBidirectional(model.form().gqlProperty());
        HBox.setHgrow(gql, Priority.ALWAYS);
        CheckComboBox<String> kinds = new CheckComboBox<>(
                model.form().availableKinds());
        kinds.setId("jobKinds");
        kinds.setTitle("Kinds: the selected one");
        kinds.getCheckModel().getCheckedItems().addListener((ListChangeListener<String>) c -> {
            model.form().kinds().setAll(kinds.getCheckModel().getCheckedItems());
            kinds.setTitle(model.form().kinds().isEmpty() ? "Kinds: the selected one"
                    : "Kinds: " + String.join(", ", model.form().kinds()));
        });
        model.form().kinds().addListener((ListChangeListener<String>) c -> {
            if (model.form().kinds().isEmpty() && !kinds.getCheckModel().getCheckedItems().isEmpty()) {
                kinds.getCheckModel().clearChecks();
            }
        });
        // the kinds and the query on one line, the numbers below it in pairs that wrap as a whole: nothing is cut
        // to "S…" or "Wo…" on a laptop screen
        Label query = new Label("Query");
        query.setMinWidth(Region.USE_PREF_SIZE);
        HBox top = new HBox(8, kinds, query, gql);
        top.setAlignment(Pos.CENTER_LEFT);
        kinds.setMinWidth(Region.USE_PREF_SIZE);
        FlowPane numbers = new FlowPane(14, 6,
                number("Shards", "jobShards", "shards", 1, 4096, model.form().shardsProperty()),
                number("Workers", "jobWorkers", "workers", 1, 512, model.form().workersProperty()),
                number("Page size", "jobPageSize", "page size", 1, 5000, model.form().pageSizeProperty()),
                number("QPS (0 = no limit)", "jobQps", "qps", 0, 1_000_000, model.form().qpsProperty()));
        getChildren().addAll(top, numbers);
        setPadding(new Insets(2, 8, 6, 8));
        invalid.bind(validation.invalidBinding(dependencies.toArray(new Observable[0])));
    }

    /** True while a number field holds what is not a whole number in its range: Start stays off. */
    ReadOnlyBooleanProperty invalidProperty() {
        return invalid.getReadOnlyProperty();
    }

    /**
     * A label, an editable spinner of whole numbers and, while what is typed is not one in [min, max], the reason
     * beside it (the words {@code run} uses). What is typed is never changed behind the user's back: an empty field or
     * -10 is not turned into the minimum, it stays as typed and keeps Start off until it is fixed.
     */
    private HBox number(String text, String id, String name, int min, int max, IntegerProperty value) {
        Spinner<Integer> spinner = new Spinner<>();
        SpinnerValueFactory.IntegerSpinnerValueFactory factory = new SpinnerValueFactory.IntegerSpinnerValueFactory(
                min, max, value.get());
        factory.setConverter(new StringConverter<>() {
            @Override
            public String toString(Integer v) {
                return v == null ? "" : v.toString();
            }

            @Override
            public Integer fromString(String typed) {
                Integer parsed = parse(typed, min, max);
                return parsed != null ? parsed : factory.getValue(); // kept, and shown as an error until fixed
            }
        });
        spinner.setValueFactory(factory);
        spinner.setId(id);
        spinner.setEditable(true);
        spinner.setPrefWidth(100);
        spinner.valueProperty().addListener((obs, old, v) -> value.set(v));
        value.addListener((obs, old, v) -> factory.setValue(v.intValue()));
        spinner.getEditor().textProperty().addListener((obs, old, typed) -> {
            Integer parsed = parse(typed, min, max);
            if (parsed != null) {
                value.set(parsed);
            }
        });
        Label error = validation.rule(spinner, "The " + name + " must be a whole number between " + min + " and "
                + max + ".", () -> parse(spinner.getEditor().getText(), min, max) == null,
                spinner.getEditor().textProperty());
        dependencies.add(spinner.getEditor().textProperty());
        Label label = new Label(text);
        label.setMinWidth(Region.USE_PREF_SIZE);
        error.setMinWidth(Region.USE_PREF_SIZE);
        HBox pair = new HBox(6, label, spinner, error);
        pair.setAlignment(Pos.CENTER_LEFT);
        return pair;
    }

    /** The whole number typed, or null when it is not one or lies outside [min, max]. */
    static Integer parse(String typed, int min, int max) {
        try {
            int v = Integer.parseInt(typed == null ? "" : typed.strip());
            return v < min || v > max ? null : v;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
