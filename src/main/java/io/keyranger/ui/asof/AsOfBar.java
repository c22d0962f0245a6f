package io.keyranger.ui.asof;

import atlantafx.base.theme.Styles;
import io.keyranger.ui.common.OffReason;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/**
 * The "As of" control: a time field (Enter or Read opens that moment), Live to return, and beneath them why a time
 * was refused or that it was rounded. On a server that keeps no past the controls are off and hovering them says why
 * (a disabled control shows no tooltip of its own, so the row carries it).
 */
public final class AsOfBar {
    private final HBox controls;
    private final VBox messages;

    public AsOfBar(AsOfModel model) {
        TextField time = new TextField();
        time.setId("asOfTime");
        time.setPromptText("-15m or 2026-11-27T10:15:00Z");
        time.setPrefColumnCount(19);
        time.setMinWidth(Region.USE_PREF_SIZE);
        time.textProperty().bindBidirectional(model.typedProperty());
        time.setOnAction(e -> model.open());
        Button read = new Button("Read", new FontIcon(Material2MZ.RESTORE));
        read.setId("openPast");
        read.setMinWidth(Region.USE_PREF_SIZE);
        read.disableProperty().bind(model.openingProperty().or(model.typedProperty().isEmpty()));
        read.setOnAction(e -> model.open());
        Button live = new Button("Live", new FontIcon(Material2AL.FAST_FORWARD));
        live.setId("backToLive");
        live.setMinWidth(Region.USE_PREF_SIZE);
        live.disableProperty().bind(model.pastProperty().isNull());
        live.setOnAction(e -> model.backToLive());
        Label label = new Label("As of");
        label.setMinWidth(Region.USE_PREF_SIZE);
        HBox inputs = new HBox(6, label, time, read, live);
        inputs.setAlignment(Pos.CENTER_LEFT);
        inputs.disableProperty().bind(model.availableProperty().not());
        controls = new HBox(inputs);
        controls.setId("asOfControl");
        controls.setAlignment(Pos.CENTER_LEFT);
        OffReason.install(controls, model.unavailableReasonProperty());

        Label error = message("asOfError", Styles.DANGER);
        error.textProperty().bind(model.errorProperty());
        Label note = message("asOfNote", "text-muted");
        note.textProperty().bind(model.noteProperty());
        messages = new VBox(2, error, note);
        messages.visibleProperty().bind(error.visibleProperty().or(note.visibleProperty()));
        messages.managedProperty().bind(messages.visibleProperty());
    }

    private static Label message(String id, String style) {
        Label label = new Label();
        label.setId(id);
        label.setWrapText(true);
        label.getStyleClass().add(style);
        label.visibleProperty().bind(label.textProperty().isNotEmpty());
        label.managedProperty().bind(label.visibleProperty());
        return label;
    }

    /** The label, field and buttons: one row. */
    public HBox controls() {
        return controls;
    }

    /** Why a time was refused, or that it was rounded; takes no room while there is nothing to say. */
    public VBox messages() {
        return messages;
    }
}
