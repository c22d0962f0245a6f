package io.keyranger.ui.main;

import io.keyranger.profile.ConnectionProfile;

/**
 * An entry of the connection picker: the built-in demo, or a saved profile.
 *
 * @param profile the saved profile, or null for the demo
 */
public record ConnectionChoice(ConnectionProfile profile) {
    public static final ConnectionChoice DEMO = new ConnectionChoice(null);

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
