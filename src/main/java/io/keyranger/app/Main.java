package io.keyranger.app;

import io.keyranger.AppDirs;
import io.keyranger.cli.KeyRangerCli;
import java.io.PrintWriter;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The entry point of {@code keyranger.jar}. It must not extend Application: JavaFX refuses to start a classpath
 * application whose main class does.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // Before the first logger exists: logback.xml reads it.
        if (System.getProperty("keyranger.log.dir") == null) {
            System.setProperty("keyranger.log.dir", AppDirs.logDir().toString());
        }
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        KeyRangerCli.Context context = new KeyRangerCli.Context(AppDirs.configDir(), System.getenv(), FxGuiStarter::open);
        int code = KeyRangerCli.execute(context, new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
        System.exit(code);
    }
}
