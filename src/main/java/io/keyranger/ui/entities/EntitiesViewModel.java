package io.keyranger.ui.entities;

import com.google.cloud.datastore.Cursor;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.datastore.EntityPage;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.edit.EntityEditor;
import io.keyranger.edit.PropertyDraft;
import io.keyranger.mapper.SpecChecks;
import io.keyranger.query.BrowserQuery;
import io.keyranger.query.Gql;
import io.keyranger.query.GqlCompletions;
import io.keyranger.query.GqlException;
import io.keyranger.query.GqlQuery;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
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
    private final PageStarts pageStarts = new PageStarts();
    private final StringProperty queryText = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper queryError = new ReadOnlyStringWrapper("");
    private final ReadOnlyIntegerWrapper queryErrorColumn = new ReadOnlyIntegerWrapper(0);
    /** What the query that ran names that its kind does not list (with the property it likely meant), or "". */
    private final ReadOnlyStringWrapper queryWarning = new ReadOnlyStringWrapper("");
    private volatile List<String> propertyNames = List.of();
    /** The properties last given ({@link #setProperties}), or null. */
    private KnownProperties known;
    private volatile List<String> kindNames = List.of();
    private final EntityEdits edits;
    private ConnectionSpec connection;
    private DatastoreGateway gateway;
    private String namespace;
    private String kind;
    private GqlQuery query;
    private Task<RenderedPage> pending;
    private RenderedPage shown = RenderedPage.EMPTY;

    public EntitiesViewModel(TaskRunner tasks, Consumer<String> errors) {
        this.tasks = tasks;
        this.errors = errors;
        this.edits = new EntityEdits(tasks, errors, this::reload);
        selected.addListener((obs, old, entity) -> selectedJson.set(entity == null ? "" : shown.json(entity)));
    }

    /** Shows the first page of a kind, and puts a query of the whole kind in the query box. */
    public void open(DatastoreGateway gateway, String namespace, String kind) {
        this.gateway = gateway;
        this.namespace = namespace;
        this.kind = kind;
        this.query = null;
        queryText.set("SELECT * FROM " + (kind.matches("[A-Za-z_$][A-Za-z0-9_$]*") ? kind : "`" + kind + "`"));
        queryError.set("");
        queryWarning.set("");
        pageStarts.reset();
        load(0);
    }

    /**
     * Runs the query box's GQL from its first page. A query that does not parse is not sent: its error, with the
     * column, shows beside the box; so does the server's refusal of one that parses.
     */
    public void runQuery() {
        if (gateway == null) {
            showQueryError("Connect and choose a kind first.", 0);
            return;
        }
        GqlQuery parsed;
        try {
            parsed = Gql.parse(queryText.get(), gateway.datastore().getOptions().getProjectId(), namespace);
        } catch (GqlException e) {
            showQueryError(e.getMessage(), e.column());
            return;
        }
        String lacking = BrowserQuery.lacking(parsed, gateway.listsEverything());
        if (lacking != null) {
            showQueryError(lacking, 0);
            return;
        }
        queryError.set("");
        queryErrorColumn.set(0);
        queryWarning.set("");
        query = parsed;
        kind = parsed.kind();
        pageStarts.reset();
        load(0);
    }

    /** The query's error beside the box, and no rows under it: what showed before answered another query. */
    private void showQueryError(String message, int column) {
        queryError.set(message);
        queryWarning.set("");
        queryErrorColumn.set(column);
        cancelPending();
        clearRows("The query did not run: see its error above.");
    }

    private void clearRows(String why) {
        rows.clear();
        shown = RenderedPage.EMPTY;
        columns.clear();
        pageNumber.set(0);
        hasNext.set(false);
        selected.set(null);
        title.set(why);
    }

    /** The editor of the open connection; a new connection forgets the edits (they were on another database). */
    public void setEditor(EntityEditor editor, ConnectionSpec connection) {
        this.connection = connection;
        edits.setEditor(editor, connection);
    }

    /** Whether the browser reads the database as of a past moment: editing is off until it reads live data again. */
    public void setReadingPast(boolean past) {
        edits.setPast(past);
    }

    /** Creating, changing and deleting entities, with Undo and Redo. */
    public EntityEdits edits() {
        return edits;
    }

    /** Where keys typed in the editor belong: this project, database and the browsed namespace. */
    public PropertyDraft.Place place() {
        return new PropertyDraft.Place(connection.projectId(), connection.databaseId(), namespace == null ? "" : namespace);
    }

    /** The kind on show (the query's, when a query runs). */
    public String kind() {
        return kind;
    }

    /** Reads the page on show again. */
    public void reload() {
        if (gateway != null && pageNumber.get() > 0 && pageStarts.known() > 0) {
            load(Math.min(pageNumber.get() - 1, pageStarts.known() - 1));
        }
    }

    /**
     * Entities may have changed behind the browser's back (a job ended): the page on show is read again, and Undo and
     * Redo that can no longer apply are taken away.
     */
    public void changedElsewhere() {
        reload();
        edits.recheck();
    }

    /**
     * The properties of {@code kind} as read through {@code source}: the names the query box completes from, and what
     * a query of that kind is checked against.
     */
    public void setProperties(DatastoreGateway source, String namespace, String kind, List<PropertyInfo> properties) {
        known = new KnownProperties(source, namespace, kind, List.copyOf(properties));
        propertyNames = properties.stream().map(PropertyInfo::name).toList();
    }

    /** A kind's properties as read through a gateway. */
    private record KnownProperties(DatastoreGateway source, String namespace, String kind,
                                   List<PropertyInfo> properties) {
    }

    /** The kinds the query box completes after FROM. */
    public void setKindNames(List<String> names) {
        kindNames = List.copyOf(names);
    }

    /**
     * Completions of the word being typed at the end of {@code text} (see {@link GqlCompletions}). Called on the FX
     * thread at each key by the completion popup: names filtered in memory.
     */
    public List<String> completions(String text) {
        return GqlCompletions.of(text, kindNames, propertyNames);
    }

    public void clear() {
        cancelPending();
        gateway = null;
        kind = null;
        query = null;
        queryError.set("");
        queryWarning.set("");
        clearRows("Choose a kind on the left.");
    }

    public void nextPage() {
        if (hasNext.get() && !loading.get()) {
            load(pageStarts.next(pageNumber.get()));
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
        GqlQuery q = query;
        Cursor start = pageStarts.of(pageIndex);
        ServerType server = connection == null ? null : connection.server();
        loading.set(true);
        // a query's first page also says which of its properties the kind does not have (a typo, most likely)
        boolean checks = q != null && pageIndex == 0;
        pending = Tasks.create("Loading " + k, () -> RenderedPage.of(q == null ? source.page(ns, k, start, PAGE_SIZE)
                        : BrowserQuery.page(source.datastore(), ns, q, start, PAGE_SIZE, (long) pageIndex * PAGE_SIZE)))
                .onSuccess(rendered -> {
                    show(pageIndex, rendered);
                    if (checks) {
                        warnOfUnknownProperties(source, ns, q);
                    }
                })
                .onError(error -> {
                    loading.set(false);
                    if (q != null) {
                        showQueryError("The server refused the query: " + ErrorMessages.of(error)
                                + BrowserQuery.unsupportedHint(q, server), 0);
                    } else {
                        errors.accept("Cannot read " + k + ": " + ErrorMessages.of(error));
                    }
                })
                .onCancelled(() -> loading.set(false))
                .run(tasks);
    }

    /**
     * Says which properties the query names that its kind does not list, once its rows show: from the properties
     * given for the kind ({@link #setProperties}) when the query reads that kind, else read beside the page. Only a
     * help: a read that fails says nothing, and never stands in the way of the rows.
     */
    private void warnOfUnknownProperties(DatastoreGateway source, String ns, GqlQuery q) {
        KnownProperties given = known;
        if (given != null && given.source() == source && given.namespace().equals(ns)
                && given.kind().equals(q.kind())) {
            queryWarning.set(String.join(" ", SpecChecks.queryWarnings(q, given.properties(),
                    !source.listsEverything())));
            return;
        }
        Tasks.create("Checking the query", () -> SpecChecks.queryWarnings(q, source.properties(ns, q.kind()),
                        !source.listsEverything()))
                .onSuccess(warnings -> {
                    if (query == q) {
                        queryWarning.set(String.join(" ", warnings));
                    }
                })
                .onError(e -> { }) // no warning: the query ran all the same
                .run(tasks);
    }

    private void show(int pageIndex, RenderedPage rendered) {
        EntityPage page = rendered.page();
        shown = rendered;
        loading.set(false);
        pageStarts.shown(page.endCursor());
        List<String> sorted = page.entities().stream().flatMap(e -> e.getNames().stream()).distinct().sorted()
                .toList();
        // the page read again (after a Save, an Undo): the row selected stays selected; another page starts at row 1
        Key kept = selected.get() == null ? null : selected.get().getKey();
        rows.setAll(page.entities()); // first: new columns then measure the new rows, whose texts are rendered
        if (!sorted.equals(columns)) {
            columns.setAll(sorted);
        }
        pageNumber.set(pageIndex + 1);
        hasNext.set(page.hasMore());
        int first = pageIndex * PAGE_SIZE + 1;
        String what = query == null ? kind : kind + " (query)";
        title.set(page.entities().isEmpty() ? what + (query == null ? ": no entities" : ": no matches")
                : String.format("%s: page %d, rows %,d–%,d", what, pageIndex + 1, first, first + page.entities().size() - 1));
        selected.set(page.entities().stream().filter(e -> e.getKey().equals(kept)).findFirst()
                .orElse(page.entities().isEmpty() ? null : page.entities().get(0)));
    }

    public StringProperty queryTextProperty() {
        return queryText;
    }

    public ReadOnlyStringProperty queryErrorProperty() {
        return queryError.getReadOnlyProperty();
    }

    /**
     * A warning beside the query box: the properties the query names that its kind does not list, each with the one
     * it most likely meant ("Did you mean 'tier'?"). The query still runs: a property may be unindexed, or new.
     */
    public ReadOnlyStringProperty queryWarningProperty() {
        return queryWarning.getReadOnlyProperty();
    }

    /** The 1-based column of the query box's error, or 0 when it has no column. */
    public ReadOnlyIntegerProperty queryErrorColumnProperty() {
        return queryErrorColumn.getReadOnlyProperty();
    }

    private void cancelPending() {
        if (pending != null && pending.isRunning()) {
            pending.cancel();
        }
    }

    /**
     * The entity's property as its table cell shows it ("" if it has none): rendered when the page was read, off the
     * FX thread.
     */
    public String cellText(Entity entity, String property) {
        return shown.cell(entity, property);
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
