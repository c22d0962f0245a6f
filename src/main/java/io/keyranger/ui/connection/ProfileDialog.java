package io.keyranger.ui.connection;

import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionRules;
import io.keyranger.profile.ConnectionProfile;
import io.keyranger.ui.common.FieldValidation;
import java.io.File;
import java.util.List;
import javafx.beans.binding.BooleanBinding;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.text.Text;
import javafx.stage.FileChooser;

/** Asks for a new saved connection: an emulator, or a project with an optional key file. Never asks for a secret. */
public final class ProfileDialog extends Dialog<ConnectionProfile> {
    private final TextField name = field("profileName", "e.g. prod-eu");
    private final RadioButton emulator = new RadioButton("Local emulator");
    private final RadioButton project = new RadioButton("Cloud project");
    private final TextField host = field("profileHost", "127.0.0.1:8081");
    private final TextField projectId = field("profileProject", "my-project");
    private final TextField database = field("profileDatabase", "(default)");
    private final TextField credentials = field("profileCredentials", "Application Default Credentials");
    private final TextField namespace = field("profileNamespace", "(default)");
    private final CheckBox readOnly = new CheckBox("Read-only: refuse jobs that write");

    private static final String NAME_ERROR = "A name is required";
    private static final String HOST_ERROR = "Use HOST:PORT, e.g. 127.0.0.1:8081";
    private static final String PROJECT_ERROR = "6 to 30 lowercase letters, digits or hyphens, from a letter";
    private static final String DATABASE_ERROR = "4 to 63 lowercase letters, digits or hyphens, from a letter";
    private static final String NAMESPACE_ERROR = "Up to 100 letters, digits, '.', '-' or '_'";

    public ProfileDialog() {
        setTitle("New connection");
        setHeaderText("Save a connection. Only the path of a key file is stored, never a secret.");
        ToggleGroup type = new ToggleGroup();
        emulator.setToggleGroup(type);
        project.setToggleGroup(type);
        emulator.setSelected(true);
        emulator.setTooltip(new Tooltip("The legacy Datastore emulator or the Firestore "
                + "emulator in Datastore mode: KeyRanger asks the host which it is when it connects."));
        host.disableProperty().bind(project.selectedProperty());
        credentials.disableProperty().bind(emulator.selectedProperty());
        Button browse = new Button("Browse…");
        browse.disableProperty().bind(emulator.selectedProperty());
        browse.setOnAction(e -> chooseKeyFile());

        FieldValidation validation = new FieldValidation();
        Label nameError = validation.rule(name, NAME_ERROR, () -> isBlank(name.getText()), name.textProperty());
        Label hostError = validation.rule(host, HOST_ERROR,
                () -> emulator.isSelected() && !validHost(host.getText()), host.textProperty(), emulator.selectedProperty());
        Label projectError = validation.rule(projectId, PROJECT_ERROR,
                () -> project.isSelected() && breaks(() -> ConnectionRules.project(projectId.getText().strip())),
                projectId.textProperty(), emulator.selectedProperty());
        Label databaseError = validation.rule(database, DATABASE_ERROR,
                () -> breaks(() -> ConnectionRules.database(database.getText().strip())), database.textProperty());
        Label namespaceError = validation.rule(namespace, NAMESPACE_ERROR,
                () -> breaks(() -> ConnectionRules.namespace(namespace.getText().strip())), namespace.textProperty());

        browse.setMinWidth(Region.USE_PREF_SIZE);
        credentials.setPrefColumnCount(22); // "Application Default Credentials", whole
        // the errors' column has room for the longest from the start: an error that appears is read whole, and
        // squeezes neither the labels nor the buttons (a dialog does not grow once shown)
        Text measure = new Text();
        double errorsWidth = 0;
        for (String message : List.of(NAME_ERROR, HOST_ERROR, PROJECT_ERROR, DATABASE_ERROR, NAMESPACE_ERROR)) {
            measure.setText(message);
            errorsWidth = Math.max(errorsWidth, measure.getLayoutBounds().getWidth());
        }
        ColumnConstraints errors = new ColumnConstraints();
        errors.setMinWidth(Math.ceil(errorsWidth) + 8);
        GridPane grid = new GridPane();
        // the labels' column keeps their width: "Emulator host", not "Emulator …"
        ColumnConstraints labels = new ColumnConstraints();
        labels.setMinWidth(Region.USE_PREF_SIZE);
        ColumnConstraints fields = new ColumnConstraints();
        fields.setMinWidth(Region.USE_PREF_SIZE);
        grid.getColumnConstraints().addAll(labels, fields, errors);
        grid.setMinWidth(Region.USE_PREF_SIZE);
        grid.setHgap(8);
        grid.setVgap(8);
        grid.setPadding(new Insets(12));
        int row = 0;
        grid.addRow(row++, new Label("Name"), name, nameError);
        grid.addRow(row++, new Label("Kind"), new HBox(12, emulator, project));
        grid.addRow(row++, new Label("Emulator host"), host, hostError);
        grid.addRow(row++, new Label("Project id"), projectId, projectError);
        grid.addRow(row++, new Label("Database"), database, databaseError);
        grid.addRow(row++, new Label("Key file"), new HBox(6, credentials, browse));
        grid.addRow(row++, new Label("Namespace"), namespace, namespaceError);
        grid.add(readOnly, 1, row);
        getDialogPane().setContent(grid);
        getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);

        BooleanBinding invalid = validation.invalidBinding(name.textProperty(), host.textProperty(),
                projectId.textProperty(), emulator.selectedProperty(), database.textProperty(), namespace.textProperty());
        getDialogPane().lookupButton(ButtonType.OK).disableProperty().bind(invalid);
        setResultConverter(button -> button == ButtonType.OK ? profile() : null);
    }

    private ConnectionProfile profile() {
        boolean isEmulator = emulator.isSelected();
        return new ConnectionProfile(name.getText().trim(), isEmulator ? host.getText().trim() : null,
                blankToNull(projectId.getText()), blankToNull(database.getText()),
                isEmulator ? null : blankToNull(credentials.getText()), blankToNull(namespace.getText()),
                readOnly.isSelected());
    }

    private void chooseKeyFile() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Service-account key file");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("JSON key", "*.json"));
        File file = chooser.showOpenDialog(getDialogPane().getScene().getWindow());
        if (file != null) {
            credentials.setText(file.getAbsolutePath());
        }
    }

    static boolean validHost(String value) {
        return value != null && !breaks(() -> ConnectionRules.hostPort(value.trim()));
    }

    private static TextField field(String id, String prompt) {
        TextField field = new TextField();
        field.setId(id);
        field.setPromptText(prompt);
        return field;
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    private static String blankToNull(String value) {
        return isBlank(value) ? null : value.trim();
    }

    /** Whether a rule of {@link ConnectionRules} refuses the value. */
    private static boolean breaks(Runnable rule) {
        try {
            rule.run();
            return false;
        } catch (KeyRangerException e) {
            return true;
        }
    }
}
