package io.keyranger.ui.main;

import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.profile.ConnectionProfile;

/**
 * An entry of the connection picker: a built-in demo (on the legacy Datastore emulator or on the Firestore emulator
 * in Datastore mode), a saved profile, or the connection the app was started with (named after what it reaches; it
 * is not saved).
 *
 * @param profile the profile, or null for a demo
 * @param demo    the emulator a demo starts, or null for a profile
 */
public record ConnectionChoice(ConnectionProfile profile, ServerType demo) {
    /** The demo on the legacy Datastore emulator. */
    public static final ConnectionChoice DEMO = new ConnectionChoice(null, ServerType.EMULATOR);
    /** The demo on the Firestore emulator in Datastore mode. */
    public static final ConnectionChoice FIRESTORE_DEMO = new ConnectionChoice(null, ServerType.FIRESTORE_EMULATOR);

    public ConnectionChoice {
        if ((profile == null) == (demo == null)) {
            throw new IllegalArgumentException("a choice is a profile or a demo");
        }
    }

    public ConnectionChoice(ConnectionProfile profile) {
        this(profile, null);
    }

    /** The demo on emulator {@code type}. */
    public static ConnectionChoice demo(ServerType type) {
        return type == ServerType.FIRESTORE_EMULATOR ? FIRESTORE_DEMO : DEMO;
    }

    /** The picker's entry for a connection given on the command line ({@code gui --emulator-host H}). */
    public static ConnectionChoice given(ConnectionSpec spec) {
        return new ConnectionChoice(new ConnectionProfile(spec.describe(), spec.emulatorHost(), spec.projectId(),
                spec.databaseId(), spec.credentialsFile() == null ? null : spec.credentialsFile().toString(),
                spec.namespace(), spec.readOnly()));
    }

    public boolean isDemo() {
        return profile == null;
    }

    @Override
    public String toString() {
        if (isDemo()) {
            return demo == ServerType.FIRESTORE_EMULATOR ? "Demo (Firestore emulator)" : "Demo (emulator)";
        }
        return profile.name() + (profile.readOnly() ? " (read-only)" : "");
    }
}
