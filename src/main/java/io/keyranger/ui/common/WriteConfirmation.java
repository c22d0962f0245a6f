package io.keyranger.ui.common;

import io.keyranger.datastore.ConnectionSpec;
import java.util.Optional;
import javafx.scene.control.TextInputDialog;
import javafx.stage.Window;

/** Asks for the project id to be typed before anything is written to a project that is not an emulator. */
public final class WriteConfirmation {
    private WriteConfirmation() {
    }

    /** True to go ahead: always on an emulator; elsewhere only when the user types the project id. */
    public static boolean confirm(Window owner, ConnectionSpec connection, String what) {
        if (connection.isLocal()) {
            return true;
        }
        TextInputDialog confirm = new TextInputDialog();
        confirm.initOwner(owner);
        confirm.setTitle("Confirm writing to a project");
        confirm.setHeaderText(what + " writes to project " + connection.projectId() + ". Type the project id to go ahead.");
        confirm.getEditor().setId("confirmProjectId");
        Optional<String> typed = confirm.showAndWait();
        return typed.isPresent() && typed.get().trim().equals(connection.projectId());
    }
}
