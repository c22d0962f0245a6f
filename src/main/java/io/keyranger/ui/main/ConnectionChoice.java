package io.keyranger.ui.main;

import io.keyranger.profile.ConnectionProfile;

/**
 * An entry of the connection picker: the built-in demo, a saved profile, or the connection the app was started with
 * (named after what it reaches; it is not saved).
 *
 * @param profile the profile, or null for the demo
 */
public record ConnectionChoice(ConnectionProfile profile) {
    public static final ConnectionChoice DEMO = new ConnectionChoice(null);

    /** The picker's entry for a connection given on the command line ({@code gui --emulator-host H}). */
    public static ConnectionChoice given(io.keyranger.datastore.ConnectionSpec spec) {
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
            return "Demo (emulator)";
        }
        return profile.name() + (profile.readOnly() ? " (read-only)" : "");
    }
}
