package io.keyranger.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Opens the desktop app, connected to the given connection if there is one. */
@Command(name = "gui", mixinStandardHelpOptions = true, description = "Open the desktop app (the default).")
public final class GuiCommand implements Runnable {
    private final KeyRangerCli.Context context;

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @Option(names = "--kind", paramLabel = "KIND", description = "Open this kind once connected.")
    String kind;

    public GuiCommand(KeyRangerCli.Context context) {
        this.context = context;
    }

    /** The window finds out which emulator a host is when it connects, and reports an unreachable one there. */
    @Override
    public void run() {
        var spec = connection.isGiven(context.env()) ? connection.named(context.profiles(), context.env()) : null;
        context.gui().open(new GuiStarter.StartupRequest(spec, null, kind));
    }
}
