package io.keyranger.ui.mapper;

import atlantafx.base.theme.Styles;
import io.keyranger.mapper.Param;
import io.keyranger.mapper.Template;
import io.keyranger.ui.common.Completer;
import javafx.beans.property.StringProperty;
import javafx.scene.Node;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The form built from a template's parameters: a row per parameter with its name (required ones marked), a control
 * for its type (a check box, a choice, an expression area, a property field that completes names, a text field) and
 * its error, each bound to the Mapper tab's model.
 */
final class ParamForm {
    private final MapperViewModel model;
    private final GridPane form = new GridPane();

    ParamForm(MapperViewModel model) {
        this.model = model;
    form.setHgap(8);
    form.setVgap(8);
    ColumnConstraints names = new ColumnConstraints();
    ColumnConstraints fields = new ColumnConstraints();
    fields.setHgrow(Priority.ALWAYS);
    fields.setFillWidth(true);
    ColumnConstraints errors = new ColumnConstraints();
    errors.setPrefWidth(200);
    errors.setMinWidth(120);
    form.getColumnConstraints().setAll(names, fields, errors);
    }

    GridPane grid() {
        return form;
    }

    /** The rows of {@code template}'s parameters (none for null). */
    void build(Template template) {
        form.getChildren().clear();
        if (template == null) {
            return;
        }
        int row = 0;
        for (Param param : template.params()) {
            Node control = control(param);
            Label error = new Label();
            error.setId("param-" + param.name() + "Error");
            error.getStyleClass().addAll(Styles.DANGER, Styles.TEXT_SMALL);
            error.textProperty().bind(model.fieldError(param.name()));
            error.setWrapText(true);
            error.setMaxWidth(240);
            error.textProperty().addListener((obs, old, text) ->
                    control.pseudoClassStateChanged(Styles.STATE_DANGER, !text.isEmpty()));
            control.pseudoClassStateChanged(Styles.STATE_DANGER, !error.getText().isEmpty());
            Label name = new Label(param.name() + (param.required() ? " *" : ""));
            name.setTooltip(new Tooltip(param.description()));
            form.addRow(row++, fixed(name), control, new VBox(2, error, warning(param)));
        }
    }

    /** What the kind's properties say of the field as typed (a typo, with the property it likely meant), or nothing. */
    private Label warning(Param param) {
        Label warning = new Label();
        warning.setId("param-" + param.name() + "Warning");
        warning.getStyleClass().addAll(Styles.WARNING, Styles.TEXT_SMALL);
        warning.textProperty().bind(model.fieldWarning(param.name()));
        warning.setWrapText(true);
        warning.setMaxWidth(240);
        warning.visibleProperty().bind(warning.textProperty().isNotEmpty());
        warning.managedProperty().bind(warning.visibleProperty());
        return warning;
    }

    /** {@code node} never narrower than it wants to be. */
    static <T extends Region> T fixed(T node) {
        node.setMinWidth(Region.USE_PREF_SIZE);
        return node;
    }

    private Node control(Param param) {
        var value = model.value(param.name());
        return switch (param.type()) {
            case BOOLEAN -> {
                CheckBox box = new CheckBox(param.description());
                box.setId("param-" + param.name());
                box.setWrapText(true);
                box.setMaxWidth(Double.MAX_VALUE);
                box.setSelected(Boolean.parseBoolean(value.get()));
                box.selectedProperty().addListener((obs, old, now) -> value.set(String.valueOf(now)));
                yield box;
            }
            case CHOICE -> {
                ComboBox<String> choice = new ComboBox<>();
                choice.setId("param-" + param.name());
                choice.getItems().setAll(param.choices());
                choice.valueProperty().bindBidirectional(value);
                yield choice;
            }
            case EXPRESSIONS -> {
                TextArea area = new TextArea();
                area.setId("param-" + param.name());
                area.setPromptText("{\"balance\": \"balance * 2\"}");
                area.textProperty().bindBidirectional(value);
                area.setPrefColumnCount(18);
                area.setPrefRowCount(3);
                area.setWrapText(true);
                yield area;
            }
            case PROPERTY -> {
                TextField field = textField(param, value);
                Completer.attach(field, model::propertySuggestions, name -> name).rows(8);
                yield field;
            }
            default -> textField(param, value);
        };
    }

    private static TextField textField(Param param, StringProperty value) {
        TextField field = new TextField();
        field.setId("param-" + param.name());
        field.setPromptText(shortPrompt(param.description())); // the example fits; the whole text is the tooltip
        field.setTooltip(new Tooltip(param.description()));
        field.textProperty().bindBidirectional(value);
        field.setPrefColumnCount(18);
        return field;
    }

    /** "the property to add to, e.g. balance" as "e.g. balance": the part a field shows whole. */
    static String shortPrompt(String description) {
        int example = description.lastIndexOf("e.g. ");
        return example >= 0 ? description.substring(example) : description;
    }
}
