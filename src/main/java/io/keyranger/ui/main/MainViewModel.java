package io.keyranger.ui.main;

import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.KnownKinds;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.datastore.Session;
import io.keyranger.edit.EntityEditor;
import io.keyranger.profile.ProfileStore;
import io.keyranger.ui.asof.AsOfModel;
import io.keyranger.ui.backups.BackupsViewModel;
import io.keyranger.ui.backups.RestoreModel;
import io.keyranger.ui.migrations.MigrationsViewModel;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.KindTarget;
import io.keyranger.ui.common.StatusModel;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import io.keyranger.ui.entities.EntitiesViewModel;
import io.keyranger.ui.kinds.KindItem;
import io.keyranger.ui.mapper.MapperViewModel;
import io.keyranger.ui.run.FinishedJob;
import io.keyranger.ui.run.RunViewModel;
import io.keyranger.ui.shards.ShardsViewModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.Objects;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.binding.StringExpression;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;

/**
 * The main window's state: the connection, its namespaces, the kinds with their counts, and the entity browser.
 * Every Datastore call runs as a background task; this class only changes state on the FX thread.
 */
public final class MainViewModel {
    private final TaskRunner tasks;
    private final ObjectProperty<Consumer<String>> errorHandler = new SimpleObjectProperty<>(message -> { });
    private final ConnectionsModel connections;
    private final StringBinding firstStartHint;
    private final ReadOnlyObjectWrapper<Session> session = new ReadOnlyObjectWrapper<>();
    private final ObservableList<String> namespaces = FXCollections.observableArrayList();
    private final ObjectProperty<String> selectedNamespace = new SimpleObjectProperty<>();
    private final ObservableList<KindItem> kinds = FXCollections.observableArrayList();
    private final ObjectProperty<KindItem> selectedKind = new SimpleObjectProperty<>();
    private final ObservableList<PropertyInfo> properties = FXCollections.observableArrayList();
    /** Why the kind list is partial (a server that cannot list kinds), or "". */
    private final ReadOnlyStringWrapper kindListNote =
            new ReadOnlyStringWrapper("");
    private final StatusModel status = new StatusModel();
    private final EntitiesViewModel entities;
    private final ShardsViewModel shards;
    private final RunViewModel run;
    private final MapperViewModel mapper;
    private final BackupsViewModel backups;
    private final MigrationsViewModel migrations;
    private final AsOfModel asOf;
    /** The browser's reads: through the live session, or through the past one while "As of" shows the past. */
    private DatastoreGateway gateway;
    private DatastoreGateway liveGateway;
    /** Kinds listed before the browser turned to another moment: listed again there, to count and open. */
    private List<String> carriedKinds = List.of();
    private final KindCounts counts;
    private String kindToOpen;

    /** {@code comparisons}: where the Backups tab's comparisons keep their state (a folder of the app's own). */
    public MainViewModel(TaskRunner tasks, ProfileStore profiles, Path comparisons) {
        this.tasks = tasks;
        this.connections = new ConnectionsModel(tasks, profiles, status, this::showError, this::opened);
        this.firstStartHint = Bindings.createStringBinding(() -> session.get() == null
                && connections.choices().stream().allMatch(ConnectionChoice::isDemo)
                ? "No saved connections yet. Connect to the Demo: it starts a local emulator with sample data."
                : "", session, connections.choices());
        this.entities = new EntitiesViewModel(tasks, this::showError);
        this.shards = new ShardsViewModel(tasks, status, this::showError);
        this.run = new RunViewModel(tasks, this::showError);
        this.mapper = new MapperViewModel(tasks, status, this::showError, run);
        this.backups = new BackupsViewModel(tasks, status, this::showError, comparisons);
        // jobs, comparisons and restores write or compare with live data: they keep the live session
        backups.sessionProperty().bind(session);
        this.migrations = new MigrationsViewModel(tasks, this::showError, run);
        migrations.sessionProperty().bind(session);
        // another database the Backups tab opens is a saved connection
        connections.choices().addListener((ListChangeListener<ConnectionChoice>) c -> savedProfiles());
        savedProfiles();
        this.asOf = new AsOfModel(tasks);
        asOf.liveProperty().bind(session);
        asOf.pastProperty().addListener((obs, old, past) -> browse(past));
        selectedNamespace.addListener((obs, old, ns) -> loadKinds(ns));
        // a job keeps its kind on the Run tab while it runs; once it ends, the Run tab follows the selection again
        run.status().runningProperty().addListener((obs, was, running) -> {
            if (!running && mapper.targetProperty().get() != run.targetProperty().get()) {
                run.targetProperty().set(mapper.targetProperty().get());
                run.refreshJobs();
            }
        });
        this.counts = new KindCounts(tasks, status, this::showError, entities.loadingProperty());
        run.whenFinished(this::afterJob);
        selectedKind.addListener((obs, old, kind) -> {
            properties.clear();
            mapper.setProperties(List.of(), false);
            Session past = asOf.pastProperty().get();
            // the list counts the past while it shows it: a job on live data does not take that count as its own
            KindTarget target = kind == null ? null : new KindTarget(session.get(), selectedNamespace.get(),
                    kind.name(), past == null ? kind.countProperty()::get : () -> null);
            // the shard preview is a read: it shows the key space the browser shows
            shards.targetProperty().set(kind == null || past == null ? target
                    : new KindTarget(past, selectedNamespace.get(), kind.name(), kind.countProperty()::get));
            mapper.targetProperty().set(target);
            if (!run.isRunning()) {
                run.targetProperty().set(target);
                run.refreshJobs();
            }
            if (kind == null) {
                entities.clear();
            } else {
                entities.open(gateway, selectedNamespace.get(), kind.name());
                loadProperties(gateway, selectedNamespace.get(), kind);
            }
        });
    }

    /** After a job ended: what it wrote is read again ({@link AfterJob}). */
    private void afterJob(FinishedJob job) {
        String namespace = selectedNamespace.get();
        if (gateway == null || namespace == null) {
            return;
        }
        KindItem kind = selectedKind.get();
        AfterJob after = AfterJob.of(job, gateway == liveGateway, kinds, kind);
        if (after.selectedKind()) {
            entities.changedElsewhere();
            loadProperties(gateway, namespace, kind);
        }
        if (!after.recount().isEmpty()) {
            counts.count(gateway, namespace, after.recount());
        }
    }

    /**
     * Shows the selected kind again from its first page, its query box reset: what a click on the kind already
     * selected does (after a query that failed, say, which a click on it would otherwise leave on show).
     */
    public void reopenSelectedKind() {
        KindItem kind = selectedKind.get();
        if (kind != null && gateway != null) {
            entities.open(gateway, selectedNamespace.get(), kind.name());
        }
    }

    /** Selects this kind as soon as the kind list shows it (once). */
    public void openKindWhenListed(String kind) {
        kindToOpen = kind;
    }

    private void opened(ConnectionsModel.Opened state) {
        liveGateway = state.gateway();
        gateway = liveGateway;
        session.set(state.session()); // a new connection shows its live data
        ConnectionSpec spec = state.session().spec();
        entities.setEditor(new EntityEditor(state.session().datastore(), spec,
                state.session().limits()), spec);
        status.setConnection(spec.describe());
        List<String> list = new ArrayList<>(state.namespaces());
        if (!list.contains(spec.namespace())) {
            list.add(0, spec.namespace());
        }
        namespaces.setAll(list);
        selectedNamespace.set(null);
        selectedNamespace.set(spec.namespace());
    }

    /**
     * Turns the browser to {@code past} (a session as of a moment), or back to live data (null): the kinds are listed
     * and counted again, and the selected kind's page and properties read again, there. Editing is off in the past.
     */
    private void browse(Session past) {
        Session live = session.get();
        DatastoreGateway next = past == null ? liveGateway : new DatastoreGateway(past.datastore(),
                past.spec().server());
        if (live == null || next == gateway) {
            return;
        }
        gateway = next;
        entities.setReadingPast(past != null);
        status.setConnection(live.describe() + (past == null ? "" : " · as of " + past.asOf().time()
                + " (read-only)"));
        KindItem kind = selectedKind.get();
        if (kind != null) {
            kindToOpen = kind.name();
        }
        carriedKinds = kinds.stream().map(KindItem::name).toList();
        loadKinds(selectedNamespace.get());
    }

    private void loadKinds(String namespace) {
        counts.cancel();
        selectedKind.set(null);
        kinds.clear();
        kindListNote.set("");
        if (namespace == null || gateway == null) {
            return;
        }
        DatastoreGateway source = gateway;
        List<String> carried = carriedKinds;
        carriedKinds = List.of();
        Tasks.create("Listing kinds", () -> {
                    // a server that cannot list kinds knows them from KeyRanger's records, which may be younger than
                    // the moment shown: the kinds listed before stay listed (counted there, 0 if none existed)
                    List<String> listed = new ArrayList<>(source.kinds(namespace, false));
                    carried.stream().filter(k -> !source.listsEverything()).filter(k -> !listed.contains(k)).forEach(listed::add);
                    listed.sort(String::compareTo);
                    return listed;
                })
                .onSuccess(names -> {
                    if (source != gateway || !namespace.equals(selectedNamespace.get())) {
                        return;
                    }
                    List<KindItem> items = names.stream().map(KindItem::new).toList();
                    kinds.setAll(items);
                    kindListNote.set(source.listsEverything() ? "" : KnownKinds.WHY
                            + " Type another kind's name below to open it.");
                    entities.setKindNames(names);
                    run.form().kinds().clear();
                    run.form().availableKinds().setAll(names);
                    // the kind asked for at start-up opens first: its page is read before any count
                    items.stream().filter(item -> item.name().equals(kindToOpen)).findFirst().ifPresent(item -> {
                        kindToOpen = null;
                        selectedKind.set(item);
                    });
                    counts.count(source, namespace, items);
                })
                .onError(e -> showError("Cannot list kinds: " + ErrorMessages.of(e)))
                .run(tasks);
    }

    /** Why the kind list shows only some kinds (a server that cannot list them), or "" when it shows all. */
    public ReadOnlyStringProperty kindListNoteProperty() {
        return kindListNote.getReadOnlyProperty();
    }

    /**
     * Opens a kind the user typed, for a server that cannot list its kinds: if it holds entities in the namespace it
     * joins the list, is selected and is remembered ({@link DatastoreGateway#remember}); otherwise an error says so.
     */
    public void openTypedKind(String typed) {
        String name = typed == null ? "" : typed.strip();
        String namespace = selectedNamespace.get();
        if (name.isEmpty() || namespace == null || gateway == null) {
            return;
        }
        Optional<KindItem> listed = kinds.stream().filter(k -> k.name().equals(name)).findFirst();
        if (listed.isPresent()) {
            selectedKind.set(listed.get());
            return;
        }
        DatastoreGateway source = gateway;
        Session browsed = browsingSession();
        boolean readOnly = browsed != null && browsed.readOnly();
        Tasks.create("Looking for " + name, () -> {
            boolean found = source.kindExists(namespace, name);
            if (found && !readOnly) { // a read-only connection writes nothing, bookkeeping included
                source.remember(namespace, name);
            }
            return found;
        }).onSuccess(found -> {
            if (source != gateway || !namespace.equals(selectedNamespace.get())) {
                return;
            }
            if (!found) {
                showError("Kind '" + name + "' has no entities in " + (namespace.isEmpty() ? "the default namespace"
                        : "namespace '" + namespace + "'") + ".");
                return;
            }
            KindItem item = new KindItem(name);
            kinds.add(item);
            List<String> names = kinds.stream().map(KindItem::name).toList();
            entities.setKindNames(names);
            run.form().availableKinds().setAll(names);
            selectedKind.set(item);
            counts.count(source, namespace, List.of(item));
        }).onError(e -> showError("Cannot look for kind " + name + ": " + ErrorMessages.of(e))).run(tasks);
    }

    private void loadProperties(DatastoreGateway source, String namespace, KindItem kind) {
        Tasks.create("Reading properties", () -> source.properties(namespace, kind.name()))
                .onSuccess(list -> {
                    if (kind == selectedKind.get()) {
                        properties.setAll(list);
                        entities.setProperties(source, namespace, kind.name(), list);
                        mapper.setProperties(list, !source.listsEverything());
                    }
                })
                .onError(e -> showError("Cannot read the properties of " + kind.name() + ": " + ErrorMessages.of(e)))
                .run(tasks);
    }

    public void showError(String message) {
        errorHandler.get().accept(message);
    }

    /** Stops every emulator this window started. */
    public void close() {
        status.cancel();
        connections.close();
    }

    /** The connection picker and what opens a connection. */
    /** The saved connections, as the Backups tab offers them to open as another database. */
    private void savedProfiles() {
        backups.profiles().setAll(connections.choices().stream().map(ConnectionChoice::profile)
                .filter(Objects::nonNull).toList());
    }

    public ConnectionsModel connections() {
        return connections;
    }

    /** What the sidebar says while nothing is connected and no connection is saved (a first start), or "". */
    public StringExpression firstStartHint() {
        return firstStartHint;
    }

    public ObjectProperty<Consumer<String>> errorHandlerProperty() {
        return errorHandler;
    }

    /** The window's "As of" control: the moment the browser reads, or live data. */
    public AsOfModel asOf() {
        return asOf;
    }

    /** The session the browser reads through: the past one while "As of" shows the past, else the live one. */
    public Session browsingSession() {
        Session past = asOf.pastProperty().get();
        return past != null ? past : session.get();
    }

    /** The open connection's live session (jobs and backups use it), or null before the first connect. */
    public ReadOnlyObjectProperty<Session> sessionProperty() {
        return session.getReadOnlyProperty();
    }

    public ObservableList<String> namespaces() {
        return namespaces;
    }

    public ObjectProperty<String> selectedNamespaceProperty() {
        return selectedNamespace;
    }

    public ObservableList<KindItem> kinds() {
        return kinds;
    }

    public ObjectProperty<KindItem> selectedKindProperty() {
        return selectedKind;
    }

    /** The selected kind's indexed properties with their value types. */
    public ObservableList<PropertyInfo> properties() {
        return properties;
    }

    public StatusModel status() {
        return status;
    }

    public MapperViewModel mapper() {
        return mapper;
    }

    /** The prices dry runs, confirmations and job summaries use (the settings' or the built-in table). */
    public void setPrices(PriceTable prices) {
        mapper.setPrices(prices);
        run.setPrices(prices);
        migrations.setPrices(prices);
    }

    public RunViewModel run() {
        return run;
    }

    public ShardsViewModel shards() {
        return shards;
    }

    public EntitiesViewModel entities() {
        return entities;
    }

    public MigrationsViewModel migrations() {
        return migrations;
    }

    public BackupsViewModel backups() {
        return backups;
    }

    /**
     * Puts a restore from a backup on the Run tab: its kind selected (once listed), the import spec in the job form,
     * ready to start and follow like any job.
     */
    public void prepareRestore(RestoreModel.RestoreRequest request) {
        run.form().kinds().clear();
        openKindWhenListed(request.kind());
        selectedNamespace.set(request.namespace());
        KindItem listed = kinds.stream().filter(k -> k.name().equals(request.kind())).findFirst().orElse(null);
        if (listed != null) {
            selectedKind.set(listed);
        }
        run.handOver(request.job());
    }
}
