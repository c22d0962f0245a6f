package io.keyranger.demo;

import io.keyranger.datastore.ServerType;
import io.keyranger.emulator.RunningEmulator;
import java.util.List;

/**
 * Where a demo's emulator listens, said in the terminal by both demos (headless, and the app's), so that the CLI or
 * any Datastore client can be used beside it.
 */
public final class DemoAddress {
    private DemoAddress() {
    }

    /** "Datastore emulator: HOST:PORT" and "Project: P": which emulator, where. */
    public static List<String> where(RunningEmulator emulator, String project) {
        return List.of((emulator.server() == ServerType.FIRESTORE_EMULATOR ? "Firestore emulator (Datastore mode): "
                : "Datastore emulator: ") + emulator.hostPort(), "Project: " + project);
    }

    /** How another shell points at it: the two variables every Datastore client reads, or the CLI's option. */
    public static String useWith(RunningEmulator emulator, String project) {
        return "Use it with: export DATASTORE_EMULATOR_HOST=" + emulator.hostPort() + " DATASTORE_PROJECT_ID=" + project
                + " (or keyranger's --emulator-host " + emulator.hostPort() + ")";
    }
}
