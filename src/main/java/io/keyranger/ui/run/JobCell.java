package io.keyranger.ui.run;

import io.keyranger.job.ListedJob;
import io.keyranger.ui.common.HoverTooltip;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;

/**
 * A row of the Run tab's job list, one line: the job's status and template, which give way (cut with "…"), then its
 * id, which never does: the id is what Resume, Inspect and the CLI name a job by. The whole line, backup included,
 * reads in the tooltip. The cell's text is that line too.
 */
final class JobCell extends ListCell<ListedJob> {
    private final RunViewModel model;
    private final Label what = new Label();
    private final Label id = new Label();
    private final HBox line = new HBox(6, what, id);

    JobCell(RunViewModel model) {
        this.model = model;
        setPrefWidth(0);
        what.setMinWidth(0);
        HBox.setHgrow(what, Priority.SOMETIMES);
        id.setMinWidth(Region.USE_PREF_SIZE);
        id.getStyleClass().add("job-id");
        setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        HoverTooltip.ofText(this);
    }

    @Override
    protected void updateItem(ListedJob job, boolean empty) {
        super.updateItem(job, empty);
        if (empty || job == null) {
            setText(null);
            setGraphic(null);
            return;
        }
        String backup = model.backupOf(job.spec().jobId());
        String status = model.describeStatus(job) + "  ·  " + job.spec().mapper().template();
        setText(status + "  ·  " + job.spec().jobId() + (backup == null ? "" : "  ·  backed up first to " + backup));
        what.setText(status + "  ·");
        id.setText(job.spec().jobId());
        setGraphic(line);
    }
}
