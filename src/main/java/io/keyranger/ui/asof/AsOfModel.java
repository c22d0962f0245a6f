package io.keyranger.ui.asof;

import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The window's "As of" control: a time typed by the user (RFC 3339 or {@code -15m}) opens the database as it was
 * then through {@link ReadWindow#open}, off the FX thread; "Back to live" returns. While {@link #pastProperty} holds a
 * session, the browser reads through it and nothing is written. A server that keeps no past (the legacy emulator)
 * leaves the control off, with the reason.
 */
public final class AsOfModel {
    private final TaskRunner tasks;
    private final ObjectProperty<Session> live = new SimpleObjectProperty<>();
    private final StringProperty typed = new SimpleStringProperty("");
    private final ReadOnlyObjectWrapper<Session> past = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper note = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper opening = new ReadOnlyBooleanWrapper();
    private final BooleanBinding available = Bindings.createBooleanBinding(
            () -> live.get() != null && live.get().spec().server().readsPast(), live);
    private final StringBinding unavailableReason = Bindings.createStringBinding(
            () -> unavailableReason(live.get()), live);
    private final StringBinding banner = Bindings.createStringBinding(() -> past.get() == null ? ""
            : "Looking at the database as of " + past.get().asOf().time() + " — read-only. Jobs, the Mapper and "
            + "Backups work on live data.", past);

    public AsOfModel(TaskRunner tasks) {
        this.tasks = tasks;
        // another connection (or none): its live data, and no past of the one before
        live.addListener((obs, old, now) -> {
            past.set(null);
            error.set("");
            note.set("");
        });
    }

    /**
     * Opens the database as of the typed time: refused (with the reason beside the field) on a server that keeps no
     * past and outside what it keeps; a time rounded to a whole minute says so.
     */
    public void open() {
        Session from = live.get();
        if (from == null || opening.get()) {
            return;
        }
        String text = typed.get();
        opening.set(true);
        error.set("");
        AtomicReference<String> told = new AtomicReference<>("");
        Tasks.create("Opening the past", () -> ReadWindow.open(from, text, told::set))
                .onSuccess(session -> {
                    opening.set(false);
                    if (from != live.get()) {
                        return;
                    }
                    // where the window is shown: what this server keeps, when it is not production's hour
                    note.set(String.join(" ", Stream.of(told.get(), from.spec().server()
                            == ServerType.FIRESTORE_EMULATOR ? ReadWindow.rule(ServerType.FIRESTORE_EMULATOR) : "")
                            .filter(t -> !t.isEmpty()).toList()));
                    past.set(session);
                })
                .onError(e -> {
                    opening.set(false);
                    error.set(ErrorMessages.of(e));
                })
                .run(tasks);
    }

    /** Reads the live database again; the field empties, so it no longer shows a time (or a refused one). */
    public void backToLive() {
        past.set(null);
        typed.set("");
        note.set("");
        error.set("");
    }

    /** The live session of the open connection (bound by the window's model). */
    public ObjectProperty<Session> liveProperty() {
        return live;
    }

    /** What the user typed: RFC 3339 or a time back from now such as {@code -15m}. */
    public StringProperty typedProperty() {
        return typed;
    }

    /** The session reading the past, or null while the window shows live data. */
    public ReadOnlyObjectProperty<Session> pastProperty() {
        return past.getReadOnlyProperty();
    }

    /** Why the typed time was refused, or "". */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** That the time was rounded to a whole minute, and on the Firestore emulator what it keeps; or "". */
    public ReadOnlyStringProperty noteProperty() {
        return note.getReadOnlyProperty();
    }

    /** True while the past is being opened. */
    public ReadOnlyBooleanProperty openingProperty() {
        return opening.getReadOnlyProperty();
    }

    /** Whether the open connection's server keeps a past to read. */
    public BooleanBinding availableProperty() {
        return available;
    }

    /** Why the control is off ({@link ServerType#NO_PAST} on the legacy emulator), or "". */
    public StringBinding unavailableReasonProperty() {
        return unavailableReason;
    }

    /**
     * Why the past cannot be opened through {@code live} ({@link ServerType#NO_PAST} on the legacy emulator, or that
     * there is no connection), or "" when it can: the As of control and the Backups tab's "Open as of" say the same.
     */
    public static String unavailableReason(Session live) {
        return live == null ? "Connect first." : live.spec().server().readsPast() ? "" : ServerType.NO_PAST;
    }

    /** What the window's banner says while it shows the past, or "". */
    public StringBinding bannerProperty() {
        return banner;
    }
}
