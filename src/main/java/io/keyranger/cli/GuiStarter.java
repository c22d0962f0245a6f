package io.keyranger.cli;

import io.keyranger.demo.DemoRequest;
import io.keyranger.datastore.ConnectionSpec;

/** Opens the desktop app; implemented outside the CLI so that this package stays free of JavaFX. */
@FunctionalInterface
public interface GuiStarter {
    /**
     * Opens the main window and returns when it closes.
     *
     * @param request what to show first
     */
    void open(StartupRequest request);

    /**
     * What the GUI does on start.
     *
     * @param connection a connection to open, or null to let the user choose
     * @param demo       demo mode settings, or null
     * @param kind       a kind to open once connected, or null
     */
    record StartupRequest(ConnectionSpec connection, DemoRequest demo, String kind) {
        public static StartupRequest none() {
            return new StartupRequest(null, null, null);
        }
    }
}
