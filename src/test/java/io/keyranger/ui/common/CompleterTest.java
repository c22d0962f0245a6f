package io.keyranger.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import impl.org.controlsfx.skin.AutoCompletePopup;
import io.keyranger.support.Fx;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.VBox;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/**
 * {@link Completer} driven directly on the FX thread, without timing: a suggestion is applied by Enter in its list
 * only while the field holds the text it was offered for. One offered for text A, accepted once the field holds B,
 * is refused and the field keeps B; Enter on a list offered for A runs the field's own action on B.
 */
class CompleterTest {
    private static final String A = "SELECT * FROM Account ORDER BY balanc";
    private static final String B = "SELECT * FROM Account ORDER BY balance DESC";
    private static final String COMPLETED = "SELECT * FROM Account ORDER BY balance";
    private static TextField field;
    private static Completer completer;
    private static final AtomicInteger ACTIONS = new AtomicInteger();

    @BeforeAll
    static void show() throws Exception {
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupSceneRoot(() -> {
            field = new TextField();
            field.setOnAction(e -> ACTIONS.incrementAndGet());
            // completes the word "balanc" only, as the GQL box completes a property name
            completer = Completer.attach(field, text -> text.endsWith(" balanc") ? List.of(COMPLETED) : List.of(),
                    text -> text.substring(text.lastIndexOf(' ') + 1));
            VBox root = new VBox(field);
            root.setPrefSize(400, 200);
            return root;
        });
        FxToolkit.setupStage(stage -> stage.show());
    }

    @AfterAll
    static void close() throws Exception {
        FxToolkit.cleanupStages();
    }

    @BeforeEach
    void focusAnEmptyField() {
        Fx.get(() -> {
            field.clear();
            field.requestFocus();
            return null;
        });
        Fx.waitUntil(10, () -> field.isFocused());
        ACTIONS.set(0);
    }

    @Test
    void enterInTheListAppliesASuggestionOfferedForTheFieldsText() {
        Fx.get(() -> {
            type(A);
            assertThat(popup().isShowing()).isTrue();
            enterInList();
            return null;
        });
        assertThat(Fx.get(() -> field.getText())).isEqualTo(COMPLETED);
        assertThat(Fx.get(() -> field.getCaretPosition())).isEqualTo(COMPLETED.length());
        assertThat(Fx.get(() -> popup().isShowing())).isFalse();
    }

    @Test
    void aSuggestionOfferedForAnOlderTextIsRefusedAndTheFieldKeepsItsText() {
        Fx.get(() -> {
            type(A);
            List<Completer.Suggestion> offered = List.copyOf(popup().getSuggestions());
            assertThat(offered).extracting(Completer.Suggestion::text).containsExactly(COMPLETED);
            type(B);
            // the list offered for A, chosen now (as a click or Enter in it reports it)
            popup().getOnSuggestion().handle(new AutoCompletePopup.SuggestionEvent<>(offered.get(0)));
            return null;
        });
        assertThat(Fx.get(() -> field.getText())).isEqualTo(B);
    }

    @Test
    void enterOnAListOfferedForAnOlderTextRunsTheFieldsActionOnItsText() {
        Fx.get(() -> {
            type(A);
            List<Completer.Suggestion> offered = List.copyOf(popup().getSuggestions());
            type(B);
            popup().getSuggestions().setAll(offered); // a list the popup still holds from A
            popup().show(field);
            enterInList();
            return null;
        });
        assertThat(Fx.get(() -> field.getText())).isEqualTo(B);
        assertThat(ACTIONS.get()).as("the field's own Enter").isEqualTo(1);
        assertThat(Fx.get(() -> popup().isShowing())).isFalse();
    }

    private static AutoCompletePopup<Completer.Suggestion> popup() {
        return completer.popup();
    }

    /** The field's text as typing leaves it: the caret at its end. */
    private static void type(String text) {
        field.setText(text);
        field.positionCaret(text.length());
    }

    /** Enter in the popup's list, where the user's Enter goes while it shows. */
    private static void enterInList() {
        ListView<?> list = (ListView<?>) popup().getSkin().getNode();
        list.fireEvent(new KeyEvent(KeyEvent.KEY_PRESSED, "", "", KeyCode.ENTER, false, false, false, false));
    }
}
