package io.keyranger.cli;

import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --as-of TIME}: the commands that read take the database as it was at a past moment. The time is checked
 * against what the server keeps before anything is read ({@link ReadWindow#open}).
 */
final class AsOf {
    @Option(names = "--as-of", paramLabel = "TIME", description = "Read the database as it was at TIME: RFC 3339 "
            + "(2026-11-27T10:15:00Z) or back from now (-15m, -1h30m, -2d). Within the last hour, or 7 days with "
            + "point-in-time recovery; on the Firestore emulator the last 4 minutes (it drops an old version once "
            + "its entity is written again about 300 s later); not on the legacy emulator.")
    String time;

    boolean given() {
        return time != null;
    }

    /** Refuses {@code --as-of} given with {@code export}, a command's {@code --export} (read instead of the database). */
    void refuseWith(Path export) {
        if (given() && export != null) {
            throw new KeyRangerException("--as-of reads the database as it was; --export reads an export: give one of"
                    + " them.");
        }
    }

    /** {@code live} as of the time given (a rounding said on {@code err}), or {@code live} itself when none was. */
    Session open(Session live, PrintWriter err) {
        if (time == null) {
            return live;
        }
        Session past = ReadWindow.open(live, time, note -> {
            err.println(note);
            err.flush();
        });
        err.println("Reading the database as of " + past.asOf().describe() + "."
                + (live.spec().server() == ServerType.FIRESTORE_EMULATOR ? " " + ReadWindow.rule(ServerType
                .FIRESTORE_EMULATOR) : ""));
        err.flush();
        return past;
    }
}
