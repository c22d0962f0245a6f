package io.keyranger.cli;

import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.EntityCount;
import io.keyranger.datastore.KnownKinds;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.datastore.Session;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.group.JobKinds;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Lists namespaces and kinds, optionally with exact counts and properties. */
@Command(name = "kinds", mixinStandardHelpOptions = true,
        description = "List kinds per namespace (all namespaces unless --namespace is given).")
public final class KindsCommand implements Runnable {
    private final KeyRangerCli.Context context;

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @Mixin
    AsOf asOf = new AsOf();

    @Option(names = "--counts", description = "Count each kind exactly (COUNT where the server has it, else a keys-only scan).")
    boolean counts;

    @Option(names = "--properties", description = "List each kind's properties with their types.")
    boolean properties;

    @Option(names = "--kind", paramLabel = "KIND", description = "Only this kind.")
    String kind;

    @Option(names = "--all", description = "Include reserved __*__ kinds and KeyRanger's bookkeeping kinds.")
    boolean all;

    @Option(names = "--export", paramLabel = "DIR", description = "List the kinds of a managed export (its folder or "
            + "metadata file) instead of a database's, with their counts.")
    Path export;

    public KindsCommand(KeyRangerCli.Context context) {
        this.context = context;
    }

    @Override
    public void run() {
        asOf.refuseWith(export);
        if (export != null) {
            ExportInfoCommand.print(ExportInfoCommand.scan(ManagedExport.open(export), null,
                    spec.commandLine().getErr()), spec.commandLine().getOut());
            return;
        }
        ConnectionSpec target = connection.resolve(context.profiles(), context.env());
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Session session = asOf.open(Session.open(target), err);
        DatastoreGateway gateway = new DatastoreGateway(session.datastore(), target.server());
        List<String> namespaces = connection.namespaceOrNull() != null ? List.of(connection.namespaceOrNull())
                : gateway.namespaces();
        if (!gateway.listsEverything()) {
            out.println(KnownKinds.WHY + " Name any other kind with --kind.");
            if (properties) {
                out.println("Properties are from a sample: those met in the first " + DatastoreGateway.TYPE_SAMPLE
                        + " entities of "
                        + "each kind (this server has no __property__ metadata), indexed or not.");
            }
        }
        if (namespaces.isEmpty()) {
            out.println("The database holds no entities.");
            return;
        }
        boolean found = false;
        List<String> present = new ArrayList<>(); // the kinds there are: the nearest is offered for a typo of --kind
        for (String namespace : namespaces) {
            List<String> kinds = new ArrayList<>(gateway.kinds(namespace, all));
            present.addAll(kinds);
            if (kind != null && !gateway.listsEverything() && !kinds.contains(kind)
                    && gateway.kindExists(namespace, kind)) {
                kinds.add(kind);
                if (!session.readOnly()) { // known from then on; a read-only connection or the past writes nothing
                    gateway.remember(namespace, kind);
                }
            }
            for (String k : kinds) {
                if (kind != null && !kind.equals(k)) {
                    continue;
                }
                if (!found) {
                    out.println(counts ? String.format("%-12s %-28s %12s  %s", "NAMESPACE", "KIND", "ENTITIES", "COUNTED BY")
                            : String.format("%-12s %s", "NAMESPACE", "KIND"));
                    found = true;
                }
                String ns = namespace.isEmpty() ? "(default)" : namespace;
                if (counts) {
                    EntityCount count = gateway.count(namespace, k, new ConsoleProgress(err, "Counting " + k),
                            Cancellation.NEVER);
                    out.printf("%-12s %-28s %12d  %s%n", ns, k, count.count(), count.method().label());
                } else {
                    out.printf("%-12s %s%n", ns, k);
                }
                if (properties) {
                    for (PropertyInfo property : gateway.properties(namespace, k)) {
                        out.printf("%-12s   .%s: %s%n", "", property.name(), String.join(", ", property.types()));
                    }
                }
                out.flush();
            }
        }
        if (!found && kind == null && !gateway.listsEverything()) {
            out.println("KeyRanger knows no kinds here yet: name one with 'keyranger kinds --kind KIND'.");
        }
        if (kind != null && !found) {
            String when = session.past() ? " as of " + session.asOf().time() : "";
            throw namespaces.size() == 1 ? JobKinds.notFound(kind, namespaces.get(0), present, when)
                    : JobKinds.notFoundIn(kind, "any namespace", present, when);
        }
    }
}
