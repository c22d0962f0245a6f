package io.keyranger.ui.main;

import io.keyranger.datastore.ConnectionRules;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.demo.DemoRequest;
import io.keyranger.demo.DemoSeeder;
import io.keyranger.emulator.CloudSdkLocator;
import io.keyranger.emulator.EmulatorManager;
import io.keyranger.emulator.RunningEmulator;
import io.keyranger.profile.ConnectionProfile;
import io.keyranger.profile.ProfileStore;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.StatusModel;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import javafx.application.Platform;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.concurrent.Task;

/**
 * The connection picker and what opens a connection: saved profiles, the demo (a local emulator it starts and seeds),
 * and the session that a successful connect hands to the window. Opening runs as a background task.
 */
public final class ConnectionsModel {
    private final TaskRunner tasks;
    private final ProfileStore profiles;
    private final StatusModel status;
    private final Consumer<String> errors;
    private final Consumer<Opened> opened;
    private final ObservableList<ConnectionChoice> choices = FXCollections.observableArrayList();
    private final ObjectProperty<ConnectionChoice> selectedChoice = new SimpleObjectProperty<>();
    private final ReadOnlyBooleanWrapper connecting = new ReadOnlyBooleanWrapper();
    private final List<RunningEmulator> emulators = new ArrayList<>();
    private Consumer<RunningEmulator> demoReady = emulator -> { };
    /** Asked before a demo emulator (and its data) is given up for another connection; true to go ahead. */
    private Predicate<String> confirmStop = question -> true;
    /** The connection open now, or null. */
    private ConnectionSpec current;

    /**
     * A connection that opened.
     *
     * @param session    the session every tab works through
     * @param gateway    the browser's reads on it
     * @param namespaces the namespaces it lists
     */
    public record Opened(Session session, DatastoreGateway gateway, List<String> namespaces) {
    }

    ConnectionsModel(TaskRunner tasks, ProfileStore profiles, StatusModel status, Consumer<String> errors,
                     Consumer<Opened> opened) {
        this.tasks = tasks;
        this.profiles = profiles;
        this.status = status;
        this.errors = errors;
        this.opened = opened;
    }

    /** Hears of each demo emulator once it is seeded (off the FX thread): the app says its address in the terminal. */
    public void onDemoReady(Consumer<RunningEmulator> ready) {
        this.demoReady = ready;
    }

    /**
     * Asks the user before a running demo's emulator is stopped because another connection was picked (its data lives
     * in that emulator's memory only); {@code confirm} answers true to go ahead.
     */
    public void onConfirmStop(Predicate<String> confirm) {
        this.confirmStop = confirm;
    }

    /** Fills the connection picker from the saved profiles; reports a corrupt profiles file. */
    public void loadProfiles() {
        List<ConnectionChoice> list = new ArrayList<>();
        list.add(ConnectionChoice.DEMO);
        list.add(ConnectionChoice.FIRESTORE_DEMO);
        try {
            profiles.load().forEach(profile -> list.add(new ConnectionChoice(profile)));
        } catch (RuntimeException e) {
            errors.accept(ErrorMessages.of(e));
        }
        ConnectionChoice kept = selectedChoice.get();
        if (kept != null && !kept.isDemo() && !list.contains(kept) && choices.contains(kept)
                && list.stream().noneMatch(c -> !c.isDemo() && c.profile().name().equals(kept.profile().name()))) {
            list.add(kept); // the connection given at start-up stays in the picker
        }
        choices.setAll(list);
        if (selectedChoice.get() == null || !choices.contains(selectedChoice.get())) {
            selectedChoice.set(choices.get(0));
        }
    }

    public void saveProfile(ConnectionProfile profile) {
        try {
            profiles.save(profile);
            loadProfiles();
            choices.stream().filter(c -> !c.isDemo() && c.profile().name().equals(profile.name()))
                    .findFirst().ifPresent(selectedChoice::set);
        } catch (RuntimeException e) {
            errors.accept(ErrorMessages.of(e));
        }
    }

    /** Connects to a connection given at start-up, which the picker then shows by what it reaches. */
    public void connectGiven(ConnectionSpec spec) {
        ConnectionChoice given = ConnectionChoice.given(spec);
        choices.add(given);
        selectedChoice.set(given);
        connect(spec);
    }

    /**
     * Connects to what the picker shows: starts a demo on its emulator, or opens the saved profile. A demo already
     * running is not started again: the window stays on it (or goes back to it), with the user's edits. Leaving a
     * running demo for another connection stops its emulator once the other one opened, after the user agreed that
     * the demo's data goes with it.
     */
    public void connectSelected(DemoRequest demoDefaults) {
        ConnectionChoice choice = selectedChoice.get();
        DemoRequest demo = choice == null ? demoDefaults : choice.isDemo() ? demoDefaults.on(choice.demo()) : null;
        RunningEmulator running = demo == null ? null : runningDemo(demo.emulator());
        if (running != null) {
            ConnectionSpec spec = running.connection(ConnectionSpec.DEFAULT_EMULATOR_PROJECT);
            if (current == null || !spec.emulatorHost().equals(current.emulatorHost())) {
                connect(spec);
            }
            return;
        }
        if (!agreeToStopDemos()) {
            return;
        }
        if (demo != null) {
            startDemo(demo);
        } else {
            connect(choice.profile().toSpec());
        }
    }

    /** The demo emulator of {@code type} this window started and that still runs, or null. */
    private RunningEmulator runningDemo(ServerType type) {
        return emulators.stream().filter(e -> e.server() == type && e.isAlive()).findFirst().orElse(null);
    }

    /** True when no demo this window started still runs, or the user agreed to give it up. */
    private boolean agreeToStopDemos() {
        List<RunningEmulator> running = emulators.stream().filter(RunningEmulator::isAlive).toList();
        if (running.isEmpty()) {
            return true;
        }
        String which = running.stream().map(e -> ConnectionChoice.demo(e.server()).toString())
                .distinct().reduce((a, b) -> a + " and " + b).orElseThrow();
        return confirmStop.test("The " + which + " keeps its data in memory only: connecting elsewhere stops its "
                + "emulator, and its data, your edits included, is lost for good. Go ahead?");
    }

    /** Stops the demo emulators this window started, but the one {@code spec} is on (if any). */
    private void stopDemosBut(ConnectionSpec spec) {
        List<RunningEmulator> left = emulators.stream()
                .filter(e -> spec.emulatorHost() == null || !e.hostPort().equals(spec.emulatorHost())).toList();
        emulators.removeAll(left);
        if (!left.isEmpty()) {
            Tasks.create("Stopping the demo", context -> {
                left.forEach(RunningEmulator::close);
                return null;
            }).run(tasks);
        }
    }

    /**
     * Starts a local emulator (the one the request names), seeds the demo data with progress, then connects to it.
     * The picker shows that demo, so that connecting again starts the same one.
     */
    public void startDemo(DemoRequest request) {
        connecting.set(true);
        if (choices.contains(ConnectionChoice.demo(request.emulator()))) {
            selectedChoice.set(ConnectionChoice.demo(request.emulator()));
        }
        Task<ConnectionSpec> task = Tasks.create("Starting the demo", context -> {
            context.progress(-1, -1, request.emulator() == ServerType.FIRESTORE_EMULATOR
                    ? "Starting the Firestore emulator (Datastore mode)…" : "Starting the Datastore emulator…");
            RunningEmulator emulator = new EmulatorManager(CloudSdkLocator.fromEnvironment(request.cloudSdk()))
                    .start(request.emulator(), request.port(), null);
            Platform.runLater(() -> emulators.add(emulator));
            ConnectionSpec spec = emulator.connection(ConnectionSpec.DEFAULT_EMULATOR_PROJECT);
            new DemoSeeder(DatastoreConnector.connect(spec), spec.server()).seed(request.accounts(),
                    (done, total) -> context.progress(done, total, String.format("Seeding demo data: %,d / %,d", done, total)),
                    context::isCancelled);
            demoReady.accept(emulator);
            return spec;
        }).onSuccess(this::connect).onError(e -> {
            connecting.set(false);
            errors.accept("The demo could not start: " + ErrorMessages.of(e));
        }).onCancelled(() -> connecting.set(false)).build();
        status.track(task);
        tasks.run(task);
    }

    /**
     * Opens a connection, builds its session once and lists its namespaces. An emulator host is asked which emulator
     * it is first (the legacy one, or the Firestore one in Datastore mode): a saved profile or a given host does not
     * say, and key order and commit limits follow it.
     */
    public void connect(ConnectionSpec spec) {
        connecting.set(true);
        Task<Opened> task = Tasks.create("Connecting", context -> {
            context.progress(-1, -1, "Connecting to " + spec.describe() + "…");
            Session session = Session.open(DatastoreConnector.identify(
                    ConnectionRules.check(spec)));
            DatastoreGateway gateway = new DatastoreGateway(session.datastore(), session.spec().server());
            return new Opened(session, gateway, gateway.namespaces());
        }).onSuccess(state -> {
            connecting.set(false);
            current = state.session().spec();
            stopDemosBut(current);
            opened.accept(state);
        }).onError(e -> {
            connecting.set(false);
            errors.accept("Cannot connect to " + spec.describe() + ": " + ErrorMessages.of(e));
        }).onCancelled(() -> connecting.set(false)).build();
        status.track(task);
        tasks.run(task);
    }

    /**
     * Whether {@code spec} is an emulator this window started (the demo's): it keeps its data in memory and stops,
     * data and jobs with it, when the window closes.
     */
    public boolean startedHere(ConnectionSpec spec) {
        return spec != null && spec.emulatorHost() != null
                && emulators.stream().anyMatch(e -> e.hostPort().equals(spec.emulatorHost()));
    }

    /** Stops every emulator this window started. */
    public void close() {
        emulators.forEach(RunningEmulator::close);
        emulators.clear();
    }

    public ObservableList<ConnectionChoice> choices() {
        return choices;
    }

    public ObjectProperty<ConnectionChoice> selectedChoiceProperty() {
        return selectedChoice;
    }

    /** True while a connection is being opened or the demo is starting. */
    public ReadOnlyBooleanProperty connectingProperty() {
        return connecting.getReadOnlyProperty();
    }
}
