package io.keyranger.app;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import io.keyranger.AppDirs;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.demo.DemoAddress;
import io.keyranger.demo.DemoRequest;
import io.keyranger.emulator.RunningEmulator;
import io.keyranger.cli.GuiStarter.StartupRequest;
import io.keyranger.profile.AppSettings;
import io.keyranger.profile.ProfileStore;
import io.keyranger.profile.SettingsStore;
import io.keyranger.profile.WindowLayout;
import io.keyranger.ui.common.BackgroundExecutor;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.connection.ProfileDialog;
import io.keyranger.ui.main.MainView;
import io.keyranger.ui.main.MainViewModel;
import io.keyranger.ui.run.RunTabWarmup;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.scene.image.Image;
import javafx.stage.Stage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The desktop app: wires stores, the background executor, the main view model and its view. */
public final class KeyRangerApp extends Application {
    private final CompletableFuture<RunTabWarmup.Result> runTabWarmUp =
            new CompletableFuture<>();

    private static final Logger LOG = LoggerFactory.getLogger(KeyRangerApp.class);
    public static final int DEFAULT_DEMO_ACCOUNTS = 20_000;
    private static volatile StartupRequest pending = StartupRequest.none();

    private final Path configDir;
    private final StartupRequest request;
    private BackgroundExecutor executor;
    private MainViewModel model;
    private SettingsStore settingsStore;
    private AppSettings settings = AppSettings.DEFAULTS;
    private Stage stage;
    private WindowLayoutKeeper windowLayout;

    public KeyRangerApp() {
        this(AppDirs.configDir(), pending);
    }

    public KeyRangerApp(Path configDir, StartupRequest request) {
        this.configDir = configDir;
        this.request = request;
    }

    /** The window's state (for tests that check what a control offers without a pop-up). */
    /** Completes when the Run tab's start-up warm-up has ended (tests wait for it). */
    public CompletableFuture<RunTabWarmup.Result> runTabWarmUp() {
        return runTabWarmUp;
    }

    public MainViewModel model() {
        return model;
    }

    static void pendingRequest(StartupRequest request) {
        pending = request;
    }

    @Override
    public void start(Stage primaryStage) {
        this.stage = primaryStage;
        settingsStore = new SettingsStore(configDir);
        String settingsProblem = null;
        try {
            settings = settingsStore.load();
        } catch (RuntimeException e) {
            settingsProblem = ErrorMessages.of(e);
        }
        applyTheme(settings.darkTheme());
        executor = new BackgroundExecutor();
        model = new MainViewModel(executor, new ProfileStore(configDir), configDir.resolve("comparisons"));
        model.errorHandlerProperty().set(this::showError);
        model.setPrices(settings.priceTable());
        MainView view = new MainView(model, this::demoDefaults, () -> {
            ProfileDialog dialog = new ProfileDialog();
            dialog.initOwner(stage);
            return dialog.showAndWait().orElse(null);
        });
        view.darkThemeToggle().setSelected(settings.darkTheme());
        view.darkThemeToggle().selectedProperty().addListener((obs, old, dark) -> {
            applyTheme(dark);
            settings = settings.withDarkTheme(dark);
            try {
                settingsStore.save(settings);
            } catch (RuntimeException e) {
                showError(ErrorMessages.of(e));
            }
        });
        stage.setTitle("KeyRanger");
        for (int size : new int[] {16, 32, 64, 128, 256}) {
            var icon = KeyRangerApp.class.getResource("icon-" + size + ".png");
            if (icon != null) {
                stage.getIcons().add(new Image(icon.toExternalForm()));
            }
        }
        stage.setOnCloseRequest(event -> {
            if (model.run().isRunning() && !confirmQuitWhileRunning()) {
                event.consume();
            } else if (model.run().isRunning()) {
                model.run().cancel();
            }
        });
        windowLayout = WindowLayoutKeeper.attach(stage, view.splitPanes(), settings.window(), this::saveWindow);
        // the window shows once, at its size, with its content: the scene is made at the window's size and laid out
        // before it shows (a scene sized to its content opened a small blank window, resized seconds later)
        Scene scene = new Scene(view, stage.getWidth(), stage.getHeight());
        scene.getStylesheets().add(KeyRangerApp.class.getResource("keyranger.css").toExternalForm());
        stage.setScene(scene);
        view.applyCss();
        view.layout();
        stage.show();
        RunTabWarmup.start(scene,
                result -> {
                    LOG.debug("Run tab warmed up in {} ms, {} steps in the window's own tab", result.millis(),
                            result.inPlaceSteps());
                    runTabWarmUp.complete(result);
                });
        model.connections().onDemoReady(KeyRangerApp::sayDemoAddress);
        model.connections().onConfirmStop(this::confirmStopDemo);
        model.connections().loadProfiles();
        if (settingsProblem != null) {
            showError(settingsProblem);
        }
        if (request.kind() != null) {
            model.openKindWhenListed(request.kind());
        }
        if (request.demo() != null) {
            model.connections().startDemo(request.demo());
        } else if (request.connection() != null) {
            model.connections().connectGiven(request.connection());
        }
    }

    /** Keeps the window's layout with the other settings; a failure to save it is not worth a dialog. */
    private void saveWindow(WindowLayout layout) {
        settings = settings.withWindow(layout);
        try {
            settingsStore.save(settings);
        } catch (RuntimeException e) {
            LOG.warn("Cannot save the window's layout: {}", ErrorMessages.of(e), e);
        }
    }

    /**
     * Says in the terminal where a demo's emulator listens, as 'demo --headless' does, so the command line can be used
     * beside the window.
     */
    private static void sayDemoAddress(RunningEmulator emulator) {
        String project = ConnectionSpec.DEFAULT_EMULATOR_PROJECT;
        DemoAddress.where(emulator, project).forEach(System.out::println);
        System.out.println(DemoAddress.useWith(emulator, project));
        System.out.println("The emulator runs until KeyRanger quits.");
        System.out.flush();
    }

    private DemoRequest demoDefaults() {
        String sdk = settings.cloudSdkPath();
        return new DemoRequest(DEFAULT_DEMO_ACCOUNTS, 0, sdk == null || sdk.isBlank() ? null : Path.of(sdk));
    }

    private static void applyTheme(boolean dark) {
        Application.setUserAgentStylesheet(dark ? new PrimerDark().getUserAgentStylesheet()
                : new PrimerLight().getUserAgentStylesheet());
    }

    /**
     * Asks before closing while a job runs. On a database that outlives the window, committed pages are safe and the
     * job can be resumed later; on the demo's emulator, which this window started, data and job go with the window.
     */
    private boolean confirmQuitWhileRunning() {
        Alert confirm = new Alert(Alert.AlertType.CONFIRMATION);
        confirm.initOwner(stage);
        confirm.setTitle("KeyRanger");
        confirm.setHeaderText("A job is running");
        var session = model.sessionProperty().get();
        confirm.setContentText(session != null && model.connections().startedHere(session.spec())
                ? "Quit anyway? This is the demo: its emulator keeps everything in memory and stops when KeyRanger "
                + "quits, so the job and the demo data are gone for good; the next demo starts afresh."
                : "Quit anyway? No range or page of the job starts from now on, the commits under way "
                + "end, everything committed stays committed and you can resume it later from the Run tab or with 'keyranger run --resume'.");
        return confirm.showAndWait().filter(b -> b == ButtonType.OK).isPresent();
    }

    /** Asks before the demo's emulator, and the data it holds in memory, is stopped for another connection. */
    private boolean confirmStopDemo(String question) {
        Alert confirm = new Alert(Alert.AlertType.CONFIRMATION, question, ButtonType.OK, ButtonType.CANCEL);
        confirm.initOwner(stage);
        confirm.setTitle("KeyRanger");
        confirm.setHeaderText("Stop the demo?");
        confirm.getDialogPane().setId("stopDemoDialog");
        return confirm.showAndWait().filter(b -> b == ButtonType.OK).isPresent();
    }

    /** A non-blocking dialog with the message only; the stack trace is already in the log. */
    private void showError(String message) {
        Alert alert = new Alert(Alert.AlertType.ERROR);
        alert.initOwner(stage);
        alert.setTitle("KeyRanger");
        alert.setHeaderText("Something went wrong");
        Label text = new Label(message);
        text.setId("errorMessage");
        text.setWrapText(true);
        text.setMaxWidth(520);
        alert.getDialogPane().setContent(text);
        alert.show();
    }

    @Override
    public void stop() {
        if (windowLayout != null) {
            windowLayout.close();
        }
        if (model != null) {
            model.close();
        }
        if (executor != null) {
            executor.close();
        }
    }
}
