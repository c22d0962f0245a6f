package io.keyranger.ui.run;

import atlantafx.base.theme.Styles;
import io.keyranger.job.JobStatus;
import io.keyranger.job.ListedJob;
import io.keyranger.undo.JobUndo;
import java.util.List;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/**
 * The Run tab's job list: the stored jobs, one line each ({@link JobCell}), read again as it comes into sight and
 * every few seconds while it is ({@link JobListRefresh}), under a header with Refresh, Resume, Inspect and Revert (and
 * the offer to take over a job another runner holds).
 */
final class JobListPane extends VBox {
    /** A row of the Jobs list: one line of text at the theme's dense cell size (2em). */
    private static final double JOB_ROW = 28;
    /** The Jobs list shows at least this many jobs, whatever job the panel above it shows. */
    private static final int JOBS_SHOWN = 5;

    JobListPane(RunViewModel model) {
        super(4);
        JobListRefresh.attach(this, model::refreshJobs);
        ListView<ListedJob> jobs = new ListView<>(model.pastJobs());
        jobs.setId("pastJobs");
        // room for five jobs at least, one line each: the charts above give way first
        jobs.getStyleClass().add(Styles.DENSE);
        jobs.setFixedCellSize(JOB_ROW);
        jobs.setPrefHeight(8 * JOB_ROW);
        jobs.setPlaceholder(new Label("No jobs stored yet"));
        jobs.setCellFactory(list -> new JobCell(model));
        // the list is read again every few seconds: the job selected stays selected when the list changes
        String[] selectedId = new String[1];
        jobs.getSelectionModel().selectedItemProperty().addListener((obs, old, job) -> {
            if (job != null) {
                selectedId[0] = job.spec().jobId();
            }
        });
        model.pastJobs().addListener((ListChangeListener<ListedJob>) change -> {
            ListedJob selected = jobs.getSelectionModel().getSelectedItem();
            if (selectedId[0] != null && (selected == null || !selected.spec().jobId().equals(selectedId[0]))) {
                model.pastJobs().stream().filter(j -> j.spec().jobId().equals(selectedId[0])).findFirst()
                        .ifPresent(j -> jobs.getSelectionModel().select(j));
            }
        });
        // the job running here is stored as running while it pauses: its row says paused, and running again after
        model.status().pausedProperty().addListener((obs, was, paused) -> jobs.refresh());
        Button refresh = new Button("Refresh", new FontIcon(Material2MZ.REFRESH));
        refresh.setId("refreshJobs");
        refresh.setOnAction(e -> model.refreshJobs());
        Button resume = new Button("Resume", new FontIcon(Material2MZ.RESTORE));
        resume.setId("resumeJob");
        resume.disableProperty().bind(jobs.getSelectionModel().selectedItemProperty().isNull()
                .or(model.status().runningProperty()));
        resume.setOnAction(e -> model.resume(jobs.getSelectionModel().getSelectedItem().spec().jobId()));
        model.takeOverOfferProperty().addListener((obs, old, offer) -> {
            if (offer != null) {
                Platform.runLater(() -> TakeOverDialog.ask(getScene().getWindow(), model, offer));
            }
        });
        Button inspect = new Button("Inspect", new FontIcon(Material2MZ.SEARCH));
        inspect.setId("inspectJob");
        inspect.disableProperty().bind(resume.disableProperty());
        inspect.setOnAction(e -> model.inspect(jobs.getSelectionModel().getSelectedItem().spec().jobId()));
        Button revert = new Button("Revert", new FontIcon(Material2MZ.UNDO));
        revert.setId("revertJob");
        revert.disableProperty().bind(Bindings.createBooleanBinding(() -> {
            ListedJob job = jobs.getSelectionModel().getSelectedItem();
            // a job left running that no runner holds (interrupted) can be reverted: the revert takes it first
            return job == null || model.status().isRunning() || job.status() == JobStatus.RUNNING
                    && job.runner() != null || !JobUndo.keepsUndo(job.spec());
        }, jobs.getSelectionModel().selectedItemProperty(), model.status().runningProperty()));
        revert.setOnAction(e -> {
            String jobId = jobs.getSelectionModel().getSelectedItem().spec().jobId();
            if (RevertConfirmation.ask(getScene().getWindow(), model.targetProperty().get(), jobId)) {
                model.revert(jobId);
            }
        });
        Label pastTitle = new Label("Jobs", new FontIcon(Material2AL.HISTORY));
        pastTitle.getStyleClass().add(Styles.TITLE_4);
        pastTitle.setMinWidth(Region.USE_PREF_SIZE);

        // the Jobs header on one row: the buttons as icons, named by their tooltips (their words do not fit beside
        // "Jobs" in the panel at 1278x775)
        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        HBox jobsHeader = new HBox(4, pastTitle, gap);
        for (Button button : List.of(refresh, resume, inspect, revert)) {
            button.getStyleClass().addAll(Styles.SMALL, Styles.BUTTON_ICON);
            button.setTooltip(new Tooltip(button.getText()));
            button.setAccessibleText(button.getText());
            button.setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
            button.setMinWidth(Region.USE_PREF_SIZE);
            jobsHeader.getChildren().add(button);
        }
        jobsHeader.setAlignment(Pos.CENTER_LEFT);
        jobsHeader.setMinHeight(Region.USE_PREF_SIZE);

        // room for five jobs at least, one line each: the totals and the charts above give way first
        jobs.setMinHeight(JOBS_SHOWN * JOB_ROW + 4);
        getChildren().addAll(jobsHeader, jobs);
        VBox.setVgrow(jobs, Priority.SOMETIMES);
    }
}
