package io.keyranger.app;

import io.keyranger.cli.GuiStarter;
import javafx.application.Application;

/** Opens the JavaFX app for a CLI command; returns when its window closes. */
final class FxGuiStarter {
    private FxGuiStarter() {
    }

    static void open(GuiStarter.StartupRequest request) {
        KeyRangerApp.pendingRequest(request);
        Application.launch(KeyRangerApp.class);
    }
}
