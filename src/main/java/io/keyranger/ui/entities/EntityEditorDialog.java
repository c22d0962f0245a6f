package io.keyranger.ui.entities;

import atlantafx.base.theme.Styles;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Value;
import io.keyranger.KeyRangerException;
import io.keyranger.edit.PropertyDraft;
import io.keyranger.query.Gql;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.TextInputControl;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/**
 * Creates or edits one entity: its key as KEY(...), and a row per property with its name, type, value and index
 * flag. Simple values are one line of text; arrays and embedded entities are typed JSON. Each field's problem shows
 * beneath its row, and Save stays disabled until there is none. The result is the entity to write.
 */
public final class EntityEditorDialog extends Dialog<Entity> {
    private final PropertyDraft.Place place;
    private final TextField key = new TextField();
    private final Label keyError = error("keyError");
    private final VBox rows = new VBox(6);
    private final List<Row> drafts = new ArrayList<>();
    private final Button save;

    /**
     * @param original the entity to edit, or null to create one
     * @param kind     the kind a new entity gets (its key field starts as KEY(kind, ''))
     */
    public EntityEditorDialog(Entity original, String kind, PropertyDraft.Place place) {
        this.place = place;
        setTitle(original == null ? "New entity" : "Edit entity");
        setHeaderText(original == null ? "A new " + kind + ": give its key and its properties."
                : "Change any property, its type or its index flag; a new key moves the entity.");
        setResizable(true);
        getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        save = (Button) getDialogPane().lookupButton(ButtonType.OK);
        save.setText(original == null ? "Create" : "Save");
        save.setId("saveEntity");
        key.setId("entityKey");
        key.getStyleClass().add("monospace");
        key.setText(original == null ? "KEY(" + kind + ", '')" : Gql.keyLiteral(original.getKey(), place.projectId(),
                place.databaseId()));
        key.textProperty().addListener((obs, old, now) -> validate());
        if (original != null) {
            for (String name : new TreeSet<>(original.getNames())) {
                addRow(PropertyDraft.of(name, original.getValue(name), place), original.getValue(name));
            }
        }
        Button add = new Button("Add property", new FontIcon(Material2AL.ADD));
        add.setId("addProperty");
        add.setOnAction(e -> addRow(new PropertyDraft("", "string", "", true), null));
        ScrollPane scroll = new ScrollPane(rows);
        scroll.setFitToWidth(true);
        scroll.setPrefViewportHeight(360);
        HBox keyRow = new HBox(8, new Label("Key"), key);
        keyRow.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(key, Priority.ALWAYS);
        VBox content = new VBox(8, keyRow, keyError, scroll, add);
        content.setPadding(new Insets(8));
        content.setPrefWidth(820);
        getDialogPane().setPrefWidth(860);
        // at least that wide: a window manager sized it to its first layout, where the values were cut
        getDialogPane().setMinWidth(860);
        setResizable(true);
        getDialogPane().setContent(content);
        setResultConverter(button -> button == ButtonType.OK ? build() : null);
        validate();
    }

    private void addRow(PropertyDraft draft, Value<?> from) {
        Row row = new Row(draft, from, drafts.size());
        drafts.add(row);
        rows.getChildren().add(row.box);
        validate();
    }

    /** Shows every field's problem and enables Save only when there is none. */
    private boolean validate() {
        boolean ok = true;
        try {
            Key parsed = Gql.key(key.getText(), place.projectId(), place.databaseId(), place.namespace());
            keyError.setText("");
            ok = parsed != null;
        } catch (KeyRangerException e) {
            keyError.setText(e.getMessage());
            ok = false;
        }
        for (Row row : drafts) {
            if (row.removed) {
                continue;
            }
            List<String> others = drafts.stream().filter(r -> r != row && !r.removed && r.index < row.index)
                    .map(r -> r.name.getText()).toList();
            PropertyDraft draft = row.draft();
            String problem = draft.nameProblem(others);
            if (problem == null) {
                try {
                    draft.toValue(place);
                } catch (KeyRangerException e) {
                    problem = e.getMessage();
                }
            }
            row.error.setText(problem == null ? "" : problem);
            ok &= problem == null;
        }
        keyError.setVisible(!keyError.getText().isEmpty());
        keyError.setManaged(keyError.isVisible());
        save.setDisable(!ok);
        return ok;
    }

    private Entity build() {
        Entity.Builder builder = Entity.newBuilder(Gql.key(key.getText(), place.projectId(), place.databaseId(),
                place.namespace()));
        for (Row row : drafts) {
            if (!row.removed) {
                PropertyDraft draft = row.draft();
                builder.set(draft.name(), draft.toValue(place, row.from));
            }
        }
        return builder.build();
    }

    private static Label error(String id) {
        Label label = new Label();
        label.setId(id);
        label.setWrapText(true);
        label.getStyleClass().add(Styles.DANGER);
        return label;
    }

    /** One property's fields; ids carry its position (prop-0-name, prop-0-type, prop-0-value, prop-0-indexed). */
    private final class Row {
        final int index;
        /** The value the row was made from, or null for a new property: what its text does not show is kept. */
        final Value<?> from;
        final TextField name = new TextField();
        final ComboBox<String> type = new ComboBox<>();
        final CheckBox indexed = new CheckBox("indexed");
        final Label error;
        final VBox box = new VBox(2);
        final HBox line;
        TextInputControl value;
        boolean removed;

        Row(PropertyDraft draft, Value<?> from, int index) {
            this.index = index;
            this.from = from;
            String id = "prop-" + index;
            name.setId(id + "-name");
            name.setPromptText("name");
            name.setText(draft.name());
            name.setPrefColumnCount(12);
            type.setId(id + "-type");
            type.getItems().setAll(PropertyDraft.TYPES);
            type.setValue(draft.type());
            indexed.setId(id + "-indexed");
            indexed.setSelected(draft.indexed());
            // the words beside a field keep their width; the value field takes what is left
            indexed.setMinWidth(Region.USE_PREF_SIZE);
            type.setMinWidth(Region.USE_PREF_SIZE);
            name.setMinWidth(Region.USE_PREF_SIZE);
            error = error(id + "-error");
            Button remove = new Button("", new FontIcon(Material2MZ.REMOVE_CIRCLE_OUTLINE));
            remove.setId(id + "-remove");
            remove.getStyleClass().add(Styles.FLAT);
            remove.setOnAction(e -> {
                removed = true;
                rows.getChildren().remove(box);
                validate();
            });
            line = new HBox(8, name, type, new Label(), indexed, remove);
            line.setAlignment(Pos.TOP_LEFT);
            value = valueField(draft.type(), draft.text());
            line.getChildren().set(2, value);
            box.getChildren().addAll(line, error);
            name.textProperty().addListener((obs, old, now) -> validate());
            indexed.selectedProperty().addListener((obs, old, now) -> validate());
            type.valueProperty().addListener((obs, old, now) -> {
                if (PropertyDraft.isJson(old) != PropertyDraft.isJson(now)) {
                    value = valueField(now, PropertyDraft.isJson(now) ? "" : value.getText());
                    line.getChildren().set(2, value);
                }
                validate();
            });
        }

        private TextInputControl valueField(String forType, String text) {
            TextInputControl field = PropertyDraft.isJson(forType) ? new TextArea(text) : new TextField(text);
            field.setId("prop-" + index + "-value");
            field.getStyleClass().add("monospace");
            if (field instanceof TextArea area) {
                area.setPrefRowCount(5);
            } else {
                ((TextField) field).setPrefColumnCount(24); // a timestamp with its offset, whole
            }
            HBox.setHgrow(field, Priority.ALWAYS);
            field.textProperty().addListener((obs, old, now) -> validate());
            return field;
        }

        PropertyDraft draft() {
            return new PropertyDraft(name.getText(), type.getValue(), value.getText(), indexed.isSelected());
        }
    }
}
