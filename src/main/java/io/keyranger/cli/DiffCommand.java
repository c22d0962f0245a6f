package io.keyranger.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.Key;
import io.keyranger.AtomicFiles;
import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.SideBySide;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Partition;
import io.keyranger.datastore.PointInTime;
import io.keyranger.launch.DiffRequest;
import io.keyranger.launch.Diffs;
import io.keyranger.launch.SourceDatabase;
import io.keyranger.datastore.Session;
import io.keyranger.keys.KeyFormat;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.query.Gql;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Compares a managed export, or the database as it was at a past moment, with live data: added, removed and changed
 * since, or one entity side by side.
 */
@Command(name = "diff", mixinStandardHelpOptions = true, description = "Compare a kind (or a query's entities, or a "
        + "list of keys) of a managed export (--export), of the database as it was at a past moment (--as-of), or of "
        + "another database (--from-project, read as of --as-of or at one moment where its server keeps versions), "
        + "with live data: the entities added, removed and changed since, with examples; or, with --key, one "
        + "entity's properties side by side. Reads only.")
public final class DiffCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KeyRangerCli.Context context;

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @Mixin
    ExportSelection selection = new ExportSelection();

    @Mixin
    AsOf asOf = new AsOf();

    @Mixin
    SourceOptions from = new SourceOptions();

    @Option(names = "--key", paramLabel = "KEY", description = "Show this entity's properties side by side: as "
            + "exported (or as of --as-of), as live.")
    String key;

    @Option(names = "--keys-out", paramLabel = "DIR", description = "Write added.keys, removed.keys and changed.keys "
            + "here (what restore --keys reads).")
    Path keysOut;

    @Option(names = "--page-size", paramLabel = "N", defaultValue = "500",
            description = "Keys per lookup of live entities (default: ${DEFAULT-VALUE}, at most 1,000).")
    int pageSize;

    @Option(names = "--parallel", paramLabel = "N", defaultValue = "" + DiffRequest.PARALLEL,
            description = "Reads in flight at once: lookups of live entities, key ranges of the live kind (for what "
                    + "was added) and of the kind as of --as-of (default: ${DEFAULT-VALUE}).")
    int parallel;

    @Option(names = "--resume", description = "Go on with a diff that stopped (Ctrl-C, a crash): give the same options "
            + "and --keys-out folder; what it compared is kept.")
    boolean resume;

    @Option(names = "--stop-after", hidden = true, paramLabel = "N",
            description = "Testing only: stop once N entities are compared, as Ctrl-C would.")
    long stopAfter = Long.MAX_VALUE;

    @Mixin
    ReportFile report = new ReportFile();

    public DiffCommand(KeyRangerCli.Context context) {
        this.context = context;
    }

    @Override
    public Integer call() throws IOException {
        ConnectionSpec conn = connection.resolve(context.profiles(), context.env());
        selection.requireOneSource(asOf.given(), from, "Compare live data with");
        String kind = selection.kind(conn.projectId(), conn.namespace());
        ManagedExport export = selection.export == null ? null : ManagedExport.open(selection.export);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Session session = Session.open(conn);
        PointInTime then = null;
        DiffRequest.Before before;
        if (from.given()) {
            Session source = SourceDatabase.open(session, from.resolve(conn, context.profiles()), asOf.time, note -> {
                err.println(note);
                err.flush();
            });
            then = source.asOf(); // null for a source read live
            before = new DiffRequest.Database(source);
        } else {
            then = asOf.open(session, err).asOf();
            before = then == null ? new DiffRequest.Export(export) : new DiffRequest.Past(then);
        }
        Version version = Version.of(before);
        String where = before.where();
        DiffRequest request = DiffRequest.of(before, conn.namespace(), kind).narrowed(selection.gql, selection.keys)
                .keysOut(keysOut, resume ? DiffRequest.Resume.GO_ON : DiffRequest.Resume.AFRESH)
                .sized(pageSize, parallel);
        Diffs diffs = new Diffs(session);
        if (key != null) {
            sideBySide(diffs, request, conn, version, out, err);
            return 0;
        }
        Diffs.Prepared diff = diffs.prepare(request);
        AtomicBoolean stop = new AtomicBoolean();
        Thread stopper = new Thread(() -> stop.set(true), "keyranger-diff-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        long started = System.nanoTime();
        ExportDiff.Result r;
        try {
            long[] compared = {0};
            r = diff.run(new ExportDiff.Progress() {
                @Override
                public void compared(long n) {
                    compared[0] = n;
                    err.printf("\rCompared %,d entities…", n);
                    err.flush();
                }

                @Override
                public synchronized void scanned(long liveKeys) {
                    err.printf("\rCompared %,d entities; read %,d live keys for those added since…", compared[0],
                            liveKeys);
                    err.flush();
                }
            }, Cancellation.of(() -> stop.get() || compared[0] >= stopAfter));
        } finally {
            err.println();
            removeHook(stopper);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        out.printf("%s%s: %,d %s compared with live data in %,d lookup%s (%.1f s, %,.0f entities/s)%s%n",
                kind, conn.namespace().isEmpty() ? "" : " in namespace " + conn.namespace(), r.compared(), where,
                r.lookups(), r.lookups() == 1 ? "" : "s", seconds, r.compared() / Math.max(seconds, 1e-3), r.cancelled() ? "; stopped early" : "");
        out.printf("  same      %,12d%n  changed   %,12d%n  removed   %,12d%n  added     %12s%n", r.same(),
                r.changed(), r.removed(), r.added() < 0 ? "(not looked for)" : String.format("%,d", r.added()));
        if (selection.gql != null) {
            out.printf("  (the query is applied on each side: of the changed, %s, %,d matched it %s and do "
                    + "not now; added and removed are entities one side lacks)%n", r.added() < 0
                    ? "those that match it now and did not " + where + " were not looked for (that pass did not run)"
                    : String.format("%,d match it now and did not %s (a restore with this query does "
                    + "not select them: their %s version does not match it)", r.entered(), where,
                    version.adjective), r.left(), where);
        }
        for (ExportDiff.Example e : r.examples()) {
            out.println((e.before() == null ? "added    " : e.now() == null ? "removed  " : "changed  ")
                    + KeyFormat.format(e.key()) + (e.before() != null && e.now() != null ? ": " + e.what() : ""));
        }
        if (keysOut != null) {
            out.println("Keys written to " + keysOut + " (added.keys, removed.keys, changed.keys"
                    + (selection.gql == null ? "" : ", and entered.keys: those that match the query now and did not "
                    + where + ", which restore --keys selects only without --gql") + ")" + (version == Version.SOURCE
                    ? "." : ": restore " + (then == null ? "" : "--as-of " + then.time() + " ") + "--keys "
                    + keysOut.resolve("removed.keys") + " brings back the removed ones."));
        }
        if (report.file != null) {
            writeReport(r, kind, before, then);
        }
        out.flush();
        if (r.cancelled()) {
            err.println("keyranger: the diff stopped early" + (keysOut == null ? "." : "; go on with the same "
                    + "options" + (then == null ? "" : ", --as-of " + then.time() + ",") + " and --resume."));
            err.flush();
            return RunCommand.EXIT_CANCELLED;
        }
        return 0;
    }

    /** What the "before" side of a comparison is, for the words of its output. */
    private enum Version {
        EXPORT("exported", "EXPORT"), PAST("past", "AS OF"), SOURCE("source", "SOURCE");

        private final String adjective;
        private final String heading;

        Version(String adjective, String heading) {
            this.adjective = adjective;
            this.heading = heading;
        }

        static Version of(DiffRequest.Before before) {
            return before instanceof DiffRequest.Database ? SOURCE : before instanceof DiffRequest.Past ? PAST : EXPORT;
        }
    }

    /** One entity as the export, the past moment or the source database holds it, and as it lives. */
    private void sideBySide(Diffs diffs, DiffRequest request, ConnectionSpec conn, Version version,
                            PrintWriter out, PrintWriter err) {
        Key k = Gql.key(key, conn.projectId(), conn.namespace());
        boolean[] reported = {false};
        Diffs.OneEntity one;
        try {
            one = diffs.entity(request, k, n -> {
                reported[0] = true;
                err.printf("\rRead %,d entities…", n);
                err.flush();
            });
        } finally {
            if (reported[0]) {
                err.println();
            }
        }
        String where = request.before().where();
        String since = request.before().since();
        out.printf("%s: %s%n", KeyFormat.format(k), one.before() == null ? "added " + since
                : one.live() == null ? "removed " + since : one.same() ? "the same as " + where : "changed " + since);
        out.printf("  %-24s %-32s %s%n", "PROPERTY", version.heading, "LIVE");
        for (SideBySide.Row row : SideBySide.of(one.before(), one.live())) {
            out.printf("%s %-24s %-32s %s%n", row.differs() ? "*" : " ", row.property(), row.exported(), row.live());
        }
        out.flush();
    }

    private void writeReport(ExportDiff.Result r, String kind, DiffRequest.Before before, PointInTime then)
            throws IOException {
        ObjectNode root = JSON.createObjectNode();
        if (before instanceof DiffRequest.Database other) {
            Partition source = Partition.of(other.source().spec());
            root.putObject("from").put("project", source.project()).put("database", source.database())
                    .put("namespace", source.namespace());
        }
        if (then != null) {
            root.put("asOf", then.time().toString());
        }
        root.put("kind", kind).put("compared", r.compared()).put("same", r.same()).put("changed", r.changed())
                .put("removed", r.removed()).put("added", r.added()).put("lookups", r.lookups())
                .put("enteredQuery", r.entered()).put("leftQuery", r.left()).put("cancelled", r.cancelled());
        ArrayNode examples = root.putArray("examples");
        for (ExportDiff.Example e : r.examples()) {
            examples.addObject().put("key", Gql.keyLiteral(e.key())).put("what", e.what());
        }
        AtomicFiles.writeString(report.file, root.toPrettyString());
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // Ctrl-C: the hook is running
        }
    }
}
