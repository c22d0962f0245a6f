package io.keyranger.ui.backups;

import io.keyranger.datastore.Session;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.profile.ConnectionProfile;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringExpression;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the Backups tab shows and the boxes it was opened from: a managed export (the path box), the connected
 * database as of a moment (the time box) or another database (the connection box), and whether the box of what is
 * shown still names it. While it does not (edited, or naming one that could not be opened), nothing acts on what is
 * shown: Compare, Restore… and queries say why instead ({@link #otherThanShown}).
 */
final class ShownBackup {
    private final StringProperty location = new SimpleStringProperty("");
    /** The time box: the database as of this moment opens as an export does. */
    private final StringProperty asOf = new SimpleStringProperty("");
    /** The saved connections another database can be opened from. */
    private final ObservableList<ConnectionProfile> profiles = FXCollections.observableArrayList();
    /** The saved connection chosen to be opened as another database. */
    private final ObjectProperty<ConnectionProfile> profile = new SimpleObjectProperty<>();
    /** The database as of a moment on show instead of an export, or null. */
    private final ReadOnlyObjectWrapper<Session> past = new ReadOnlyObjectWrapper<>();
    /** Another database on show instead of an export or a moment (read at one moment where it keeps versions). */
    private final ReadOnlyObjectWrapper<Session> database = new ReadOnlyObjectWrapper<>();
    /** The box's text when what is on screen was opened ("as of …" for a moment); "" while nothing is. */
    private final ReadOnlyStringWrapper opened = new ReadOnlyStringWrapper("");
    private final BooleanBinding showsOpened = Bindings.createBooleanBinding(
            () -> !opened.get().isEmpty() && opened.get().equals(database.get() != null
                    ? profile.get() == null ? "" : DatabaseOpening.label(profile.get())
                    : past.get() == null ? stripped(location.get()) : pastLabel(asOf.get())),
            opened, location, asOf, past, database, profile);
    private ManagedExport export;

    /** Shows {@code shown}, opened from the path box's {@code label}. */
    void showExport(ManagedExport shown, String label) {
        export = shown;
        opened.set(label);
    }

    /** Shows the connected database as of a moment ({@code at}), opened from the time box's {@code label}. */
    void showPast(Session at, String label) {
        past.set(at);
        opened.set(label);
    }

    /** Shows another database ({@code source}), opened from the connection box's {@code label}. */
    void showDatabase(Session source, String label) {
        database.set(source);
        opened.set(label);
    }

    /** Shows nothing. */
    void clear() {
        export = null;
        past.set(null);
        database.set(null);
        opened.set("");
    }

    /** Whether anything is on show. */
    boolean any() {
        return !opened.get().isEmpty();
    }

    /** What is on show, as its box named it, or "". */
    String label() {
        return opened.get();
    }

    /** True while something is on show and its box still names it. */
    BooleanBinding showsOpened() {
        return showsOpened;
    }

    /** Whether nothing is on show or its box names it (so an action may act on it). */
    boolean stillNamed() {
        return !any() || showsOpened.get();
    }

    /** What the tab says while the box of what is shown names another. */
    String otherThanShown() {
        if (database.get() != null) {
            return "The connection box names another database than the one shown (" + opened.get() + "): Open it, "
                    + "or choose that one back.";
        }
        if (past.get() != null) {
            return "The time box names another moment than the one shown (" + opened.get() + "): Open it, or put "
                    + "that time back.";
        }
        return "The path box names another export than the one shown (" + opened.get() + "): Open it, or put that "
                + "path back.";
    }

    /** What the tab says under its summary: why Compare, Restore and queries are off, or "". */
    StringExpression notice() {
        return Bindings.createStringBinding(() -> stillNamed() ? "" : otherThanShown(), opened, showsOpened);
    }

    /** The export on show, or null. */
    ManagedExport export() {
        return export;
    }

    static String pastLabel(String typed) {
        return "as of " + stripped(typed);
    }

    static String stripped(String text) {
        return text == null ? "" : text.strip();
    }

    StringProperty locationProperty() {
        return location;
    }

    StringProperty asOfProperty() {
        return asOf;
    }

    ObservableList<ConnectionProfile> profiles() {
        return profiles;
    }

    ObjectProperty<ConnectionProfile> profileProperty() {
        return profile;
    }

    ReadOnlyObjectProperty<Session> pastProperty() {
        return past.getReadOnlyProperty();
    }

    ReadOnlyObjectProperty<Session> databaseProperty() {
        return database.getReadOnlyProperty();
    }
}
