package io.keyranger.support;

import io.keyranger.app.KeyRangerApp;
import io.keyranger.cli.GuiStarter.StartupRequest;
import java.nio.file.Path;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/** Tests of the real app with no connection: each starts it with a config directory of its own; it closes after. */
public abstract class OfflineAppTest {
    protected final FxRobot robot = new FxRobot();
    protected KeyRangerApp app;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void closeApp() throws Exception {
        if (app != null) {
            FxToolkit.cleanupApplication(app);
        }
        FxToolkit.cleanupStages();
    }

    /** Starts the app with its settings in {@code config}; returns its window once shown. */
    protected Stage launch(Path config) throws Exception {
        app = (KeyRangerApp) FxToolkit.setupApplication(() -> new KeyRangerApp(config, StartupRequest.none()));
        Stage stage = FxToolkit.toolkitContext().getRegisteredStage();
        Fx.waitUntil(10, stage::isShowing);
        return stage;
    }
}
