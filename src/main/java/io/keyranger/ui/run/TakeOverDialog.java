package io.keyranger.ui.run;

import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.stage.Window;

/** Asks whether to take over a job that another runner holds: at once, once its lease runs out, or not at all. */
final class TakeOverDialog {
    private TakeOverDialog() {
    }

    static void ask(Window owner, RunViewModel model, TakeOverOffer offer) {
        ButtonType now = new ButtonType("Take over now", ButtonBar.ButtonData.OK_DONE);
        ButtonType wait = new ButtonType("Wait for its lease", ButtonBar.ButtonData.OTHER);
        Alert ask = new Alert(Alert.AlertType.CONFIRMATION, offer.message(), now, wait, ButtonType.CANCEL);
        ask.initOwner(owner);
        ask.setTitle("Job is running elsewhere");
        ask.setHeaderText("Job " + offer.jobId() + " is being run by another runner");
        ask.getDialogPane().setId("takeOverDialog");
        ask.getDialogPane().setPrefWidth(560);
        ButtonType choice = ask.showAndWait().orElse(ButtonType.CANCEL);
        if (choice == now) {
            model.takeOver(offer.jobId(), true);
        } else if (choice == wait) {
            model.takeOver(offer.jobId(), false);
        } else {
            model.takeOverOfferProperty().set(null);
        }
    }
}
