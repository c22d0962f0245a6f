package io.keyranger.ui.main;

import io.keyranger.ui.run.JobTarget;
import io.keyranger.demo.DemoRequest;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.EntityCount;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.demo.DemoSeeder;
import io.keyranger.emulator.CloudSdkLocator;
import io.keyranger.emulator.EmulatorManager;
import io.keyranger.emulator.RunningEmulator;
import io.keyranger.profile.ConnectionProfile;
import io.keyranger.profile.ProfileStore;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import io.keyranger.ui.entities.EntitiesViewModel;
import io.keyranger.ui.kinds.KindItem;
import io.keyranger.ui.shards.ShardsViewModel;
import io.keyranger.ui.run.RunViewModel;
import io.keyranger.ui.mapper.MapperViewModel;
import io.keyranger.executor.ServerLimits;
import io.keyranger.keys.KeyOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.concurrent.Task;

/**
 * The main window's state: the connection, its namespaces, the kinds with their counts, and the entity browser.
 * Every Datastore call runs as a background task; this class only changes state on the FX thread.
 */
public final class MainViewModel {
    private final TaskRunner tasks;
    private final ProfileStore profiles;
    private final ObjectProperty<Consumer<String>> errorHandler = new SimpleObjectProperty<>(message -> { });
    private final ObservableList<ConnectionChoice> choices = FXCollections.observableArrayList();
    private final ObjectProperty<ConnectionChoice> selectedChoice = new SimpleObjectProperty<>();
    private final ReadOnlyObjectWrapper<ConnectionSpec> connection = new ReadOnlyObjectWrapper<>();
    private final ObservableList<String> namespaces = FXCollections.observableArrayList();
    private final ObjectProperty<String> selectedNamespace = new SimpleObjectProperty<>();
    private final ObservableList<KindItem> kinds = FXCollections.observableArrayList();
    private final ObjectProperty<KindItem> selectedKind = new SimpleObjectProperty<>();
    private final ObservableList<PropertyInfo> properties = FXCollections.observableArrayList();
    private final StatusModel status = new StatusModel();
    private final EntitiesViewModel entities;
    private final ShardsViewModel shards;
    private final RunViewModel run;
    private final MapperViewModel mapper;
    private final List<RunningEmulator> emulators = new ArrayList<>();
    private final ReadOnlyBooleanWrapper connecting = new ReadOnlyBooleanWrapper();
    private DatastoreGateway gateway;
    private Task<?> counting;
    private String kindToOpen;

    public MainViewModel(TaskRunner tasks, ProfileStore profiles) {
        this.tasks = tasks;
        this.profiles = profiles;
        this.entities = new EntitiesViewModel(tasks, this::showError);
        this.shards = new ShardsViewModel(tasks, status, this::showError);
        this.run = new RunViewModel(tasks, this::showError);
        this.mapper = new MapperViewModel(tasks, this::showError, run);
        selectedNamespace.addListener((obs, old, ns) -> loadKinds(ns));
        // a job keeps its kind on the Run tab while it runs; once it ends, the Run tab follows the selection again
        run.runningProperty().addListener((obs, was, running) -> {
            if (!running && mapper.targetProperty().get() != run.targetProperty().get()) {
                run.targetProperty().set(mapper.targetProperty().get());
                run.refreshJobs();
            }
        });
        selectedKind.addListener((obs, old, kind) -> {
            properties.clear();
            shards.targetProperty().set(kind == null ? null : new ShardsViewModel.Target(gateway.datastore(),
                    KeyOrder.forServer(connection.get().isEmulator()), selectedNamespace.get(), kind.name(),
                    kind.countProperty()::get));
            JobTarget target = kind == null ? null : new JobTarget(gateway.datastore(),
                    KeyOrder.forServer(connection.get().isEmulator()),
                    ServerLimits.forServer(connection.get().isEmulator()), selectedNamespace.get(), kind.name(),
                    () -> kind.countProperty().get() == null ? -1 : kind.countProperty().get().count(),
                    connection.get());
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

    /** Fills the connection picker from the saved profiles; reports a corrupt profiles file. */
    public void loadProfiles() {
        List<ConnectionChoice> list = new ArrayList<>();
        list.add(ConnectionChoice.DEMO);
        try {
            profiles.load().forEach(profile -> list.add(new ConnectionChoice(profile)));
        } catch (RuntimeException e) {
            showError(ErrorMessages.of(e));
        }
        choices.setAll(list);
        if (selectedChoice.get() == null || !choices.contains(selectedChoice.get())) {
            selectedChoice.set(choices.get(0));
        }
    }

    /** Whether there is no saved connection yet: the first start, where the demo is offered. */
    public boolean isFirstStart() {
        return choices.size() <= 1;
    }

    public void saveProfile(ConnectionProfile profile) {
        try {
            profiles.save(profile);
            loadProfiles();
            choices.stream().filter(c -> !c.isDemo() && c.profile().name().equals(profile.name()))
                    .findFirst().ifPresent(selectedChoice::set);
        } catch (RuntimeException e) {
            showError(ErrorMessages.of(e));
        }
    }

    /** Connects to what the picker shows: starts the demo, or opens the saved profile. */
    public void connectSelected(DemoRequest demoDefaults) {
        ConnectionChoice choice = selectedChoice.get();
        if (choice == null || choice.isDemo()) {
            startDemo(demoDefaults);
        } else {
            connect(choice.profile().toSpec());
        }
    }

    /** Selects this kind as soon as the kind list shows it (once). */
    public void openKindWhenListed(String kind) {
        kindToOpen = kind;
    }

    /** Starts a local emulator, seeds the demo data with progress, then connects to it. */
    public void startDemo(DemoRequest request) {
        connecting.set(true);
        Task<ConnectionSpec> task = Tasks.create("Starting the demo", context -> {
            context.progress(-1, -1, "Starting the Datastore emulator…");
            RunningEmulator emulator = new EmulatorManager(CloudSdkLocator.fromEnvironment(request.cloudSdk()))
                    .start(request.port());
            Platform.runLater(() -> emulators.add(emulator));
            ConnectionSpec spec = emulator.connection(ConnectionSpec.DEFAULT_EMULATOR_PROJECT);
            new DemoSeeder(DatastoreConnector.connect(spec)).seed(request.accounts(),
                    (done, total) -> context.progress(done, total, String.format("Seeding demo data: %,d / %,d", done, total)),
                    context::isCancelled);
            return spec;
        }).onSuccess(this::connect).onError(e -> {
            connecting.set(false);
            showError("The demo could not start: " + ErrorMessages.of(e));
        }).onCancelled(() -> connecting.set(false)).build();
        status.track(task);
        tasks.run(task);
    }

    /** Opens a connection and lists its namespaces. */
    public void connect(ConnectionSpec spec) {
        connecting.set(true);
        Task<ConnectedState> task = Tasks.create("Connecting", context -> {
            context.progress(-1, -1, "Connecting to " + spec.describe() + "…");
            DatastoreGateway opened = new DatastoreGateway(DatastoreConnector.connect(spec));
            return new ConnectedState(opened, opened.namespaces());
        }).onSuccess(state -> {
            connecting.set(false);
            gateway = state.gateway();
            connection.set(spec);
            status.setConnection(spec.describe());
            List<String> list = new ArrayList<>(state.namespaces());
            if (!list.contains(spec.namespace())) {
                list.add(0, spec.namespace());
            }
            namespaces.setAll(list);
            selectedNamespace.set(null);
            selectedNamespace.set(spec.namespace());
        }).onError(e -> {
            connecting.set(false);
            showError("Cannot connect to " + spec.describe() + ": " + ErrorMessages.of(e));
        }).onCancelled(() -> connecting.set(false)).build();
        status.track(task);
        tasks.run(task);
    }

    private record ConnectedState(DatastoreGateway gateway, List<String> namespaces) {
    }

    private void loadKinds(String namespace) {
        if (counting != null) {
            counting.cancel();
        }
        selectedKind.set(null);
        kinds.clear();
        if (namespace == null || gateway == null) {
            return;
        }
        DatastoreGateway source = gateway;
        Tasks.create("Listing kinds", () -> source.kinds(namespace, false))
                .onSuccess(names -> {
                    if (source != gateway || !namespace.equals(selectedNamespace.get())) {
                        return;
                    }
                    List<KindItem> items = names.stream().map(KindItem::new).toList();
                    kinds.setAll(items);
                    countKinds(source, namespace, items);
                    items.stream().filter(item -> item.name().equals(kindToOpen)).findFirst().ifPresent(item -> {
                        kindToOpen = null;
                        selectedKind.set(item);
                    });
                })
                .onError(e -> showError("Cannot list kinds: " + ErrorMessages.of(e)))
                .run(tasks);
    }

    private void loadProperties(DatastoreGateway source, String namespace, KindItem kind) {
        Tasks.create("Reading properties", () -> source.properties(namespace, kind.name()))
                .onSuccess(list -> {
                    if (kind == selectedKind.get()) {
                        properties.setAll(list);
                    }
                })
                .onError(e -> showError("Cannot read the properties of " + kind.name() + ": " + ErrorMessages.of(e)))
                .run(tasks);
    }

    /** Counts kinds one after the other; a keys-only scan shows its progress and can be cancelled. */
    private void countKinds(DatastoreGateway source, String namespace, List<KindItem> items) {
        Task<Void> task = Tasks.<Void>create("Counting entities", context -> {
            for (KindItem item : items) {
                EntityCount count = source.count(namespace, item.name(),
                        (done, total) -> {
                            context.progress(-1, -1, String.format("Counting %s: %,d", item.name(), done));
                            Platform.runLater(() -> item.partialCountProperty().set(done));
                        },
                        context::isCancelled);
                Platform.runLater(() -> item.countProperty().set(count));
            }
            return null;
        }).onError(e -> showError("Cannot count entities: " + ErrorMessages.of(e))).build();
        counting = task;
        status.track(task);
        tasks.run(task);
    }

    public void showError(String message) {
        errorHandler.get().accept(message);
    }

    /** Stops every emulator this window started. */
    public void close() {
        status.cancel();
        emulators.forEach(RunningEmulator::close);
        emulators.clear();
    }

    /** True while a connection is being opened or the demo is starting. */
    public ReadOnlyBooleanProperty connectingProperty() {
        return connecting.getReadOnlyProperty();
    }

    public ObjectProperty<Consumer<String>> errorHandlerProperty() {
        return errorHandler;
    }

    public ObservableList<ConnectionChoice> choices() {
        return choices;
    }

    public ObjectProperty<ConnectionChoice> selectedChoiceProperty() {
        return selectedChoice;
    }

    public ReadOnlyObjectProperty<ConnectionSpec> connectionProperty() {
        return connection.getReadOnlyProperty();
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

    public RunViewModel run() {
        return run;
    }

    public ShardsViewModel shards() {
        return shards;
    }

    public EntitiesViewModel entities() {
        return entities;
    }
}
