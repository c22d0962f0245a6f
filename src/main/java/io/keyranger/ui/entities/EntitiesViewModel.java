package io.keyranger.ui.entities;

import com.google.cloud.datastore.Cursor;
import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.EntityJson;
import io.keyranger.datastore.EntityPage;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.concurrent.Task;

/**
 * The entity table of one kind, paged with cursors (never offsets): it remembers where each visited page starts,
 * so that "previous" goes back without re-reading from the beginning.
 */
public final class EntitiesViewModel {
    public static final int PAGE_SIZE = 50;

    private final TaskRunner tasks;
    private final Consumer<String> errors;
    private final ObservableList<Entity> rows = FXCollections.observableArrayList();
    private final ObservableList<String> columns = FXCollections.observableArrayList();
    private final ObjectProperty<Entity> selected = new SimpleObjectProperty<>();
    private final ReadOnlyStringWrapper selectedJson = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Choose a kind on the left.");
    private final ReadOnlyIntegerWrapper pageNumber = new ReadOnlyIntegerWrapper(0);
    private final ReadOnlyBooleanWrapper hasNext = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final List<Cursor> pageStarts = new ArrayList<>();
    private DatastoreGateway gateway;
    private String namespace;
    private String kind;
    private Cursor nextStart;
    private Task<EntityPage> pending;

    public EntitiesViewModel(TaskRunner tasks, Consumer<String> errors) {
        this.tasks = tasks;
        this.errors = errors;
        selected.addListener((obs, old, entity) -> selectedJson.set(entity == null ? "" : EntityJson.toPrettyJson(entity)));
    }

    /** Shows the first page of a kind. */
    public void open(DatastoreGateway gateway, String namespace, String kind) {
        this.gateway = gateway;
        this.namespace = namespace;
        this.kind = kind;
        pageStarts.clear();
        pageStarts.add(null);
        load(0);
    }

    public void clear() {
        cancelPending();
        gateway = null;
        kind = null;
        rows.clear();
        columns.clear();
        pageNumber.set(0);
        hasNext.set(false);
        title.set("Choose a kind on the left.");
    }

    public void nextPage() {
        if (hasNext.get() && !loading.get()) {
            int next = pageNumber.get();
            if (pageStarts.size() == next) {
                pageStarts.add(nextStart);
            }
            load(next);
        }
    }

    public void previousPage() {
        if (pageNumber.get() > 1 && !loading.get()) {
            load(pageNumber.get() - 2);
        }
    }

    private void load(int pageIndex) {
        cancelPending();
        DatastoreGateway source = gateway;
        String ns = namespace;
        String k = kind;
        Cursor start = pageStarts.get(pageIndex);
        loading.set(true);
        pending = Tasks.create("Loading " + k, () -> source.page(ns, k, start, PAGE_SIZE))
                .onSuccess(page -> show(pageIndex, page))
                .onError(error -> {
                    loading.set(false);
                    errors.accept("Cannot read " + k + ": " + ErrorMessages.of(error));
                })
                .onCancelled(() -> loading.set(false))
                .run(tasks);
    }

    private void show(int pageIndex, EntityPage page) {
        loading.set(false);
        nextStart = page.endCursor();
        Set<String> names = new LinkedHashSet<>();
        page.entities().forEach(entity -> names.addAll(entity.getNames()));
        List<String> sorted = new ArrayList<>(names);
        sorted.sort(String::compareTo);
        if (!sorted.equals(columns)) {
            columns.setAll(sorted);
        }
        rows.setAll(page.entities());
        pageNumber.set(pageIndex + 1);
        hasNext.set(page.hasMore());
        int first = pageIndex * PAGE_SIZE + 1;
        title.set(page.entities().isEmpty() ? kind + ": no entities"
                : String.format("%s: page %d, rows %,d–%,d", kind, pageIndex + 1, first, first + page.entities().size() - 1));
        selected.set(page.entities().isEmpty() ? null : page.entities().get(0));
    }

    private void cancelPending() {
        if (pending != null && pending.isRunning()) {
            pending.cancel();
        }
    }

    public ObservableList<Entity> rows() {
        return rows;
    }

    public ObservableList<String> columns() {
        return columns;
    }

    public ObjectProperty<Entity> selectedProperty() {
        return selected;
    }

    public ReadOnlyStringProperty selectedJsonProperty() {
        return selectedJson.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    public ReadOnlyIntegerProperty pageNumberProperty() {
        return pageNumber.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty hasNextProperty() {
        return hasNext.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }
}
