package io.keyranger.ui.common;

import atlantafx.base.theme.Styles;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import javafx.beans.Observable;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.scene.control.Control;
import javafx.scene.control.Label;

/**
 * Validation shown next to the input: an invalid field gets the theme's danger state and its message in a label
 * beside it. ControlsFX's ValidationSupport wraps the scene root in a decoration pane, which breaks Dialog's
 * showAndWait (controlsfx issue 730), so dialogs use this instead.
 */
public final class FieldValidation {
    private final List<Rule> rules = new ArrayList<>();

    private record Rule(Control field, Label message, BooleanSupplier invalid, String text) {
    }

    /** Adds a rule and returns the label to place next to the field. */
    public Label rule(Control field, String text, BooleanSupplier invalid, Observable... dependencies) {
        Label message = new Label();
        message.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.DANGER);
        message.setId(field.getId() == null ? null : field.getId() + "Error");
        Rule rule = new Rule(field, message, invalid, text);
        rules.add(rule);
        for (Observable dependency : dependencies) {
            dependency.addListener(o -> refresh(rule));
        }
        refresh(rule);
        return message;
    }

    /** True while any rule fails; bind a dialog's OK button's disable property to it. */
    public BooleanBinding invalidBinding(Observable... dependencies) {
        return Bindings.createBooleanBinding(() -> rules.stream().anyMatch(r -> r.invalid().getAsBoolean()), dependencies);
    }

    private static void refresh(Rule rule) {
        boolean invalid = rule.invalid().getAsBoolean();
        rule.field().pseudoClassStateChanged(Styles.STATE_DANGER, invalid);
        rule.message().setText(invalid ? rule.text() : "");
    }
}
