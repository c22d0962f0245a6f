package io.keyranger.ui.backups;

import com.google.cloud.datastore.Entity;
import io.keyranger.formats.managed.ExportBrowser;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.datastore.Cancellation;
import io.keyranger.keys.KeyOrder;
import io.keyranger.query.ClientQuery;
import io.keyranger.query.Gql;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * Paging through one kind of an open export: a GQL query applied on the client (an export has no index, so each page
 * scans), Next and Previous, and a key lookup, each page read off the FX thread. What is open and selected is the
 * Backups tab's ({@link BackupsViewModel}); a page read for an export or kind no longer shown is dropped.
 */
public final class ExportPages {
    public static final int PAGE_SIZE = 50;

    /** What a page is read from: the export on show, the kind selected, and the project and key order of keys. */
    public interface Shown {
        ManagedExport export();

        BackupsViewModel.KindRow kind();

        String project();

        KeyOrder order();

        /** Why queries are off (the path box names another export than the one shown), or "". */
        String refusal();
    }

    private final TaskRunner tasks;
    private final Consumer<String> errors;
    private final Shown source;
    private final StringProperty query = new SimpleStringProperty("");
    private final StringProperty key = new SimpleStringProperty("");
    private final ObservableList<Entity> entities = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper pageInfo = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper hasNext = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper hasPrevious = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper reading = new ReadOnlyBooleanWrapper();
    private final Deque<Long> starts = new ArrayDeque<>();
    private ClientQuery shown;
    private long next = -1;

    ExportPages(TaskRunner tasks, Consumer<String> errors, Shown source) {
        this.tasks = tasks;
        this.errors = errors;
        this.source = source;
    }

    /** Shows the first page of the whole of {@code row}'s kind. */
    void showKind(BackupsViewModel.KindRow row) {
        query.set("SELECT * FROM " + row.kind());
        runQuery();
    }

    /** Forgets the query and the page on show. */
    void clear() {
        shown = null;
        next = -1;
        starts.clear();
        entities.clear();
        pageInfo.set("");
        hasNext.set(false);
        hasPrevious.set(false);
    }

    /** Runs the query from its first page. */
    public void runQuery() {
        BackupsViewModel.KindRow row = source.kind();
        if (source.export() == null || row == null) {
            return;
        }
        if (!source.refusal().isEmpty()) {
            errors.accept(source.refusal());
            return;
        }
        ClientQuery parsed;
        try {
            parsed = new ClientQuery(Gql.parse(query.get(), source.project(), row.namespace()), source.order());
        } catch (RuntimeException e) {
            errors.accept(ErrorMessages.of(e));
            return;
        }
        shown = parsed;
        starts.clear();
        load(0);
    }

    /** Looks a key up among the selected kind's entities of the export (a query on __key__, read through). */
    public void lookUp() {
        BackupsViewModel.KindRow row = source.kind();
        if (row == null || key.get() == null || key.get().isBlank()) {
            return;
        }
        try {
            Gql.key(key.get(), source.project(), row.namespace());
        } catch (RuntimeException e) {
            errors.accept(ErrorMessages.of(e));
            return;
        }
        query.set("SELECT * FROM " + row.kind() + " WHERE __key__ = " + key.get().strip());
        runQuery();
    }

    public void nextPage() {
        if (next >= 0) {
            load(next);
        }
    }

    public void previousPage() {
        if (starts.size() > 1) {
            starts.pop();
            long start = starts.pop();
            load(start);
        }
    }

    private void load(long start) {
        BackupsViewModel.KindRow row = source.kind();
        ClientQuery q = shown;
        ManagedExport e = source.export();
        String project = source.project();
        reading.set(true);
        Tasks.create("Querying the export", ctx -> new ExportBrowser(e, project, row.namespace())
                .page(q, start, PAGE_SIZE, Cancellation.of(ctx::isCancelled)))
                .onSuccess(page -> {
                    reading.set(false);
                    if (e != source.export() || row != source.kind()) {
                        return; // read for what the tab no longer shows
                    }
                    starts.push(start);
                    next = page.next();
                    entities.setAll(page.entities());
                    hasNext.set(next >= 0);
                    hasPrevious.set(starts.size() > 1);
                    pageInfo.set(String.format("Page %d: %d entit%s; read %,d entities of the export for it (no "
                            + "index: a query scans).", starts.size(), page.entities().size(),
                            page.entities().size() == 1 ? "y" : "ies", page.scanned()));
                }).onError(error -> {
                    reading.set(false);
                    errors.accept(ErrorMessages.of(error));
                }).onCancelled(() -> reading.set(false)).run(tasks);
    }

    /** True while a page is being read. */
    public ReadOnlyBooleanProperty readingProperty() {
        return reading.getReadOnlyProperty();
    }

    public StringProperty queryProperty() {
        return query;
    }

    public StringProperty keyProperty() {
        return key;
    }

    public ObservableList<Entity> entities() {
        return entities;
    }

    public ReadOnlyStringProperty pageInfoProperty() {
        return pageInfo.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty hasNextProperty() {
        return hasNext.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty hasPreviousProperty() {
        return hasPrevious.getReadOnlyProperty();
    }
}
