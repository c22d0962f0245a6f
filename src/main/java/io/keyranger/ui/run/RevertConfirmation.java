package io.keyranger.ui.run;

import io.keyranger.ui.common.KindTarget;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.stage.Window;

/** Asks before a revert: what it restores, what it leaves alone; outside an emulator, the project's id too. */
final class RevertConfirmation {
    private RevertConfirmation() {
    }

    /** Whether the user wants job {@code jobId} reverted. */
    static boolean ask(Window owner, KindTarget target, String jobId) {
        if (JobGuard.checkRevert(owner, target, jobId) != JobGuard.Decision.RUN) {
            return false;
        }
        ButtonType revert = new ButtonType("Revert", ButtonBar.ButtonData.OK_DONE);
        Alert confirm = new Alert(Alert.AlertType.CONFIRMATION, "Every entity job " + jobId + " changed goes back to "
                + "what it was before the job: deleted entities come back, created ones go. Entities changed since "
                + "the job keep their values and are listed as conflicts. The revert is a job of its own, and can be "
                + "reverted too.", revert, ButtonType.CANCEL);
        confirm.initOwner(owner);
        confirm.setHeaderText("Revert job " + jobId + "?");
        return confirm.showAndWait().orElse(ButtonType.CANCEL) == revert;
    }
}
