package io.keyranger.ui.run;

import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.job.WriteSafety;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import io.keyranger.report.Operations;
import io.keyranger.ui.common.KindTarget;
import java.util.List;
import java.util.Optional;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.TextInputDialog;
import javafx.stage.Window;

/**
 * The checks before a job that writes: read-only connections refuse; a project that is not an emulator needs its
 * id typed to confirm; delete and increment offer to export the kind first, then run (one confirmation for both).
 */
public final class JobGuard {
    /** What the user chose. */
    public enum Decision { RUN, EXPORT_FIRST, CANCEL }

    private JobGuard() {
    }

    public static Decision check(Window owner, KindTarget target, String specJson) {
        return check(owner, target, specJson, List.of(), PriceTable.BUILT_IN);
    }

    /**
     * The estimated operations and price of running {@code template} over the target's kind, from its count in the
     * kind list ("" when the count is not known yet): every entity changed, with its undo record unless {@code undo}
     * is off, counted as the dry run and the finished job count them ({@link Operations}).
     */
    static String estimate(KindTarget target, Template template, boolean undo, PriceTable prices) {
        long n = target.countOrUnknown();
        if (n < 0) {
            return "";
        }
        return "\n\nEstimated for " + String.format("%,d", n) + " entities: "
                + Operations.overEvery(n, template, undo).describe(prices) + ".";
    }

    /**
     * As above, for a job over several kinds ({@code kinds}, empty for the target's kind alone): a job that writes
     * names every kind it changes and asks before it starts.
     */
    public static Decision check(Window owner, KindTarget target, String specJson, List<String> kinds,
                                 PriceTable prices) {
        Template template;
        try {
            template = Mappers.template(MapperSpec.parse(specJson).template());
        } catch (KeyRangerException e) {
            return Decision.RUN; // the view model reports the bad spec itself
        }
        WriteSafety.Verdict verdict = WriteSafety.verdict(target.session().spec(), template);
        if (!template.writes()) {
            return Decision.RUN;
        }
        if (verdict == WriteSafety.Verdict.READ_ONLY) {
            Alert refused = new Alert(Alert.AlertType.ERROR, WriteSafety.readOnly(template, null).getMessage());
            refused.initOwner(owner);
            refused.setHeaderText("Read-only connection");
            refused.showAndWait();
            return Decision.CANCEL;
        }
        if (verdict == WriteSafety.Verdict.CONFIRM_PROJECT) {
            TextInputDialog confirm = new TextInputDialog();
            confirm.initOwner(owner);
            confirm.setTitle("Confirm writing to a project");
            confirm.setHeaderText("'" + template.name() + "' writes to project " + target.session().spec().projectId()
                    + ". Type the project id to go ahead." + (kinds.isEmpty() ? estimate(target, template,
                    MapperSpec.parse(specJson).undo(), prices) : "")
                    + (MapperSpec.parse(specJson).undo() ? "" : "\n\nIt keeps no undo records (\"undo\": false): it "
                    + "cannot be reverted."));
            Optional<String> typed = confirm.showAndWait();
            if (typed.isEmpty() || !typed.get().trim().equals(target.session().spec().projectId())) {
                return Decision.CANCEL;
            }
        }
        if (!kinds.isEmpty()) {
            Alert confirm = new Alert(Alert.AlertType.CONFIRMATION, "'" + template.name() + "' will "
                    + (template.offersBackup() ? "change for good" : "write to") + " every entity of these "
                    + kinds.size() + " kinds" + (target.namespace().isEmpty() ? "" : " in namespace "
                    + target.namespace()) + ":\n" + String.join(", ", kinds), ButtonType.OK, ButtonType.CANCEL);
            confirm.initOwner(owner);
            confirm.setHeaderText("Run '" + template.name() + "' over " + kinds.size() + " kinds?");
            return confirm.showAndWait().orElse(ButtonType.CANCEL) == ButtonType.OK ? Decision.RUN : Decision.CANCEL;
        }
        if (template.offersBackup()) {
            ButtonType exportFirst = new ButtonType("Export, then run", ButtonBar.ButtonData.LEFT);
            ButtonType runAnyway = new ButtonType("Run without export", ButtonBar.ButtonData.OK_DONE);
            Alert offer = new Alert(Alert.AlertType.CONFIRMATION, "'" + template.name() + "' changes " + target.kind()
                    + (MapperSpec.parse(specJson).undo() ? ". It keeps undo records: Revert in the job list takes it "
                    + "back for 7 days." : ". It keeps no undo records (\"undo\": false): it cannot be reverted.")
                    + " Export the kind first, as a managed export (in ~/" + target.kind() + "-backup) that gcloud "
                    + "datastore import restores and the Backups tab compares and restores from, then run '"
                    + template.name() + "' once it is done? The job records where it was backed up."
                    + estimate(target, template, MapperSpec.parse(specJson).undo(), prices), exportFirst,
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
