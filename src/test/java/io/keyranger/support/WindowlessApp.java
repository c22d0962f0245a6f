package io.keyranger.support;

import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.demo.DemoSeeder;
import io.keyranger.profile.ProfileStore;
import io.keyranger.ui.common.BackgroundExecutor;
import io.keyranger.ui.kinds.KindItem;
import io.keyranger.ui.main.MainViewModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import org.testfx.api.FxToolkit;

/**
 * The app's view models with no window: the main view model as the app wires it (its own background executor, a
 * config folder of its own), on a real emulator. Its tasks hand their results to the FX thread, so the toolkit runs,
 * but no stage is ever shown. Errors the app would show in a dialog are kept in {@link #errors()}.
 */
public final class WindowlessApp implements AutoCloseable {
    private final BackgroundExecutor executor = new BackgroundExecutor();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final Path config;
    private final MainViewModel model;

    private WindowlessApp(Path config) {
        this.config = config;
        startToolkit();
        this.model = Fx.get(() -> {
            MainViewModel created = new MainViewModel(executor, new ProfileStore(config), config.resolve("comparisons"));
            created.errorHandlerProperty().set(errors::add);
            return created;
        });
    }

    /**
     * Starts the FX toolkit once per test JVM as the window tests do (TestFX sets up headless Monocle; its primary
     * stage is never shown), so that window tests and these share one toolkit in whichever order they run.
     */
    public static void startToolkit() {
        try {
            FxToolkit.registerPrimaryStage();
        } catch (TimeoutException e) {
            throw new IllegalStateException("the FX toolkit did not start", e);
        }
    }

    /** The view models with nothing connected, their settings in {@code config}. */
    public static WindowlessApp offline(Path config) {
        return new WindowlessApp(config);
    }

    /** The view models connected to {@code spec} as {@code gui --emulator-host} connects; returns once it opened. */
    public static WindowlessApp connectedTo(ConnectionSpec spec) {
        return connectedTo(spec, null);
    }

    /** As {@code gui --emulator-host H --kind K}: connected to {@code spec}, {@code kind} (if any) opened once listed. */
    public static WindowlessApp connectedTo(ConnectionSpec spec, String kind) {
        WindowlessApp app = new WindowlessApp(tempConfig());
        Fx.get(() -> {
            if (kind != null) {
                app.model.openKindWhenListed(kind);
            }
            app.model.connections().connectGiven(spec);
            return null;
        });
        Fx.waitUntil(60, () -> app.model.sessionProperty().get() != null);
        return app;
    }

    /** A fresh project on the legacy emulator holding the demo's data with {@code accounts} accounts. */
    public static ConnectionSpec demoData(String prefix, int accounts) {
        return demoData(ServerType.EMULATOR, prefix, accounts);
    }

    /** A fresh project on the emulator of type {@code type} holding the demo's data with {@code accounts} accounts. */
    public static ConnectionSpec demoData(ServerType type, String prefix, int accounts) {
        ConnectionSpec spec = SharedEmulator.freshProject(type, prefix);
        new DemoSeeder(SharedEmulator.connect(spec), spec.server()).seed(accounts, (done, total) -> { },
                Cancellation.NEVER);
        return spec;
    }

    private static Path tempConfig() {
        try {
            return Files.createTempDirectory("keyranger-windowless");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public MainViewModel model() {
        return model;
    }

    /** What the app would have shown in error dialogs, in order. */
    public List<String> errors() {
        return errors;
    }

    public Path config() {
        return config;
    }

    /** Selects {@code kind} in the kind list once it is listed, and waits for its first page. */
    public void select(String kind) {
        Fx.waitUntil(60, () -> model.kinds().stream().anyMatch(k -> k.name().equals(kind)));
        Fx.get(() -> {
            model.selectedKindProperty().set(null);
            model.selectedKindProperty().set(model.kinds().stream().filter(k -> k.name().equals(kind)).findFirst()
                    .orElseThrow());
            return null;
        });
        Fx.waitUntil(30, () -> model.entities().titleProperty().get().startsWith(kind + ":")
                && !model.entities().loadingProperty().get());
    }

    /** The kind list's item of {@code kind}. */
    public KindItem kind(String kind) {
        return Fx.get(() -> model.kinds().stream().filter(k -> k.name().equals(kind)).findFirst().orElseThrow());
    }

    @Override
    public void close() {
        Fx.get(() -> {
            model.close();
            return null;
        });
        executor.close();
    }
}
