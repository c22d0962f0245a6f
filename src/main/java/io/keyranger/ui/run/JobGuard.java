package io.keyranger.ui.run;

import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.launch.Consent;
import io.keyranger.launch.JobRequest;
import io.keyranger.ui.common.KindTarget;
import io.keyranger.undo.JobUndo;
import java.util.List;
import java.util.Optional;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.TextInputDialog;
import javafx.stage.Window;

/**
 * The dialogs before a job that writes, asking what the application layer's {@link Consent} says must be asked:
 * read-only connections refuse; a project that is not an emulator needs its id typed to confirm; a job over several
 * kinds names them; delete and increment offer to export the kind first, then run (one confirmation for both).
 */
public final class JobGuard {
    /** What the user chose. */
    public enum Decision { RUN, EXPORT_FIRST, CANCEL }

    private JobGuard() {
    }

    /**
     * Asks what a revert of job {@code jobId} needs asked ({@link Consent#of(ConnectionSpec, JobRequest.Revert)});
     * returns what the user chose. Its cost is not known before it reads the job's undo records: no estimate.
     */
    static Decision checkRevert(Window owner, KindTarget target, String jobId) {
        return check(owner, target, Consent.of(target.session().spec(),
                JobRequest.revert(jobId, JobUndo.RevertSettings.defaults())), List.of());
    }

    /**
     * Asks what {@code consent} says must be asked of a job over the target's kind, or over several kinds
     * ({@code kinds}, empty for the target's kind alone): a job that writes names every kind it changes and asks
     * before it starts. What to ask is the application layer's ({@link Consent}; the Run tab's job's is
     * {@link StartPrice#consent}); this only asks it. A null consent (a spec the form refuses) asks nothing: the
     * view model reports the bad spec itself.
     */
    public static Decision check(Window owner, KindTarget target, Consent consent, List<String> kinds) {
        if (consent == null || !consent.writes()) {
            return Decision.RUN;
        }
        String name = consent.template().name();
        String estimate = consent.estimate() == null ? "" : "\n\n" + consent.estimate() + ".";
        if (consent.refusal() != null) {
            Alert refused = new Alert(Alert.AlertType.ERROR, consent.refusal());
            refused.initOwner(owner);
            refused.setHeaderText("Read-only connection");
            refused.showAndWait();
            return Decision.CANCEL;
        }
        if (consent.confirmsProject()) {
            TextInputDialog confirm = new TextInputDialog();
            confirm.initOwner(owner);
            confirm.setTitle("Confirm writing to a project");
            confirm.setHeaderText("'" + name + "' writes to project " + consent.project()
                    + ". Type the project id to go ahead." + estimate + (consent.noUndo() ? "\n\nIt keeps no undo "
                    + "records (\"undo\": false): it cannot be reverted." : ""));
            Optional<String> typed = confirm.showAndWait();
            if (typed.isEmpty() || !consent.allows(typed.get().trim())) {
                return Decision.CANCEL;
            }
        }
        if (consent.confirmsKinds()) {
            Alert confirm = new Alert(Alert.AlertType.CONFIRMATION, "'" + name + "' will "
                    + (consent.template().offersBackup() ? "change for good" : "write to") + " every entity of these "
                    + kinds.size() + " kinds" + (target.namespace().isEmpty() ? "" : " in namespace "
                    + target.namespace()) + ":\n" + String.join(", ", kinds), ButtonType.OK, ButtonType.CANCEL);
            confirm.initOwner(owner);
            confirm.setHeaderText("Run '" + name + "' over " + kinds.size() + " kinds?");
            return confirm.showAndWait().orElse(ButtonType.CANCEL) == ButtonType.OK ? Decision.RUN : Decision.CANCEL;
        }
        if (consent.backupOffered()) {
            ButtonType exportFirst = new ButtonType("Export, then run", ButtonBar.ButtonData.LEFT);
            ButtonType runAnyway = new ButtonType("Run without export", ButtonBar.ButtonData.OK_DONE);
            Alert offer = new Alert(Alert.AlertType.CONFIRMATION, "'" + name + "' changes " + target.kind()
                    + (consent.noUndo() ? ". It keeps no undo records (\"undo\": false): it cannot be reverted."
                    : ". It keeps undo records: Revert in the job list takes it back for 7 days.")
                    + " Export the kind first, as a managed export (in ~/" + target.kind() + "-backup) that gcloud "
                    + "datastore import restores and the Backups tab compares and restores from, then run '"
                    + name + "' once it is done? The job records where it was backed up." + estimate, exportFirst,
                    runAnyway, ButtonType.CANCEL);
            offer.initOwner(owner);
            offer.setHeaderText("Back up first?");
            ButtonType choice = offer.showAndWait().orElse(ButtonType.CANCEL);
            if (choice == exportFirst) {
                return Decision.EXPORT_FIRST;
            }
            return choice == runAnyway ? Decision.RUN : Decision.CANCEL;
        }
        return Decision.RUN;
    }
}
