package io.keyranger.ui.common;

import impl.org.controlsfx.skin.AutoCompletePopup;
import java.util.List;
import java.util.function.Function;
import javafx.event.ActionEvent;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.util.StringConverter;

/**
 * Completions under a text field, offered as the user types (the GQL box, a property name). Each list is computed on
 * the FX thread for the field's exact text and caret, and every suggestion keeps that text and caret: it is applied
 * only while the field still holds them. A suggestion offered for an older text is never applied to a newer one
 * (typed fast, a late list would otherwise rewrite the query): the popup closes, and Enter does what it does in the
 * field. The completions must be quick (names filtered in memory): they run on every key.
 */
public final class Completer {
    /**
     * One suggestion.
     *
     * @param forText  the field's text it was computed for
     * @param forCaret the field's caret it was computed for
     * @param text     the whole text it puts in the field
     * @param shown    what the popup shows of it
     */
    record Suggestion(String forText, int forCaret, String text, String shown) {
    }

    private final TextField field;
    private final Function<String, List<String>> completions;
    private final Function<String, String> shown;
    private final AutoCompletePopup<Suggestion> popup = new AutoCompletePopup<>();
    private boolean applying;

    private Completer(TextField field, Function<String, List<String>> completions, Function<String, String> shown) {
        this.field = field;
        this.completions = completions;
        this.shown = shown;
        popup.setConverter(new StringConverter<>() {
            @Override
            public String toString(Suggestion s) {
                return s == null ? "" : s.shown();
            }

            @Override
            public Suggestion fromString(String text) {
                return null;
            }
        });
        popup.setOnSuggestion(e -> apply(e.getSuggestion()));
        // Enter on a list computed for another text: close it and let the field have its Enter (run the query)
        popup.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ENTER && !popup.getSuggestions().isEmpty()
                    && !current(popup.getSuggestions().get(0))) {
                e.consume();
                popup.hide();
                field.fireEvent(new ActionEvent());
            }
        });
        field.textProperty().addListener((obs, old, text) -> offer());
        field.caretPositionProperty().addListener((obs, old, caret) -> offer());
        field.focusedProperty().addListener((obs, was, focused) -> {
            if (!focused) {
                popup.hide();
            }
        });
    }

    /**
     * Offers {@code completions} of the field's text (whole texts, for the word that ends at the caret when the caret
     * is at the end), each shown in the popup as {@code shown} makes it.
     */
    public static Completer attach(TextField field, Function<String, List<String>> completions,
                                   Function<String, String> shown) {
        return new Completer(field, completions, shown);
    }

    /** The popup's width, in pixels. */
    public Completer width(double pixels) {
        popup.setPrefWidth(pixels);
        return this;
    }

    /** How many suggestions the popup shows without scrolling. */
    public Completer rows(int count) {
        popup.setVisibleRowCount(count);
        return this;
    }

    /** The popup and its list (package tests drive them as a user's Enter or click does). */
    AutoCompletePopup<Suggestion> popup() {
        return popup;
    }

    /** Replaces the popup's list with one computed for the field's text and caret as they are now. */
    private void offer() {
        if (applying) {
            return;
        }
        String text = field.getText() == null ? "" : field.getText();
        int caret = field.getCaretPosition();
        List<String> found = field.isFocused() && caret == text.length() ? completions.apply(text) : List.of();
        popup.getSuggestions().setAll(found.stream().map(c -> new Suggestion(text, caret, c, shown.apply(c)))
                .toList());
        if (found.isEmpty()) {
            popup.hide();
            return;
        }
        if (!popup.isShowing() && field.getScene() != null && field.getScene().getWindow() != null) {
            popup.show(field);
        }
        if (popup.getSkin() != null && popup.getSkin().getNode() instanceof ListView<?> list) {
            list.getSelectionModel().select(0);
        }
    }

    /** Whether {@code s} was computed for the field's text and caret as they are now. */
    private boolean current(Suggestion s) {
        return s.forText().equals(field.getText()) && s.forCaret() == field.getCaretPosition();
    }

    private void apply(Suggestion s) {
        popup.hide();
        if (s == null || !current(s)) {
            return; // offered for another text: never applied to this one
        }
        applying = true;
        try {
            field.setText(s.text());
            field.positionCaret(s.text().length());
        } finally {
            applying = false;
        }
    }
}
