package io.keyranger.cli;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.StructuredQuery;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.KeyCounter;
import io.keyranger.datastore.Session;
import io.keyranger.datastore.WhereClause;
import io.keyranger.group.JobKinds;
import io.keyranger.keys.KeyFormat;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.SpecChecks;
import io.keyranger.query.Gql;
import io.keyranger.query.JobQuery;
import io.keyranger.sharding.Balance;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.PlannedRange;
import io.keyranger.sharding.PreviewJson;
import io.keyranger.sharding.RangeCounter;
import io.keyranger.sharding.ShardPlan;
import io.keyranger.sharding.ShardPlanner;
import io.keyranger.sharding.ShardPreview;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Shows how a kind's key space splits into shards: scatter-sampled plan beside a lexicographic one. */
@Command(name = "preview", mixinStandardHelpOptions = true,
        description = "Preview how a kind splits into shards from its __scatter__ sample.")
public final class PreviewCommand implements Runnable {
    private final KeyRangerCli.Context context;

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @Mixin
    AsOf asOf = new AsOf();

    @Option(names = "--kind", paramLabel = "KIND", description = "The kind to plan (or give --gql).")
    String kind;

    @Option(names = "--gql", paramLabel = "QUERY", description = "Plan the entities a GQL query selects, e.g. "
            + "\"SELECT * FROM Account WHERE tier = 'pro'\".")
    String gql;

    @Option(names = "--shards", defaultValue = "16", paramLabel = "N", description = "How many ranges (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--oversample", defaultValue = "64", paramLabel = "M",
            description = "Scatter samples per shard (default: ${DEFAULT-VALUE}).")
    int oversample;

    @Option(names = "--where", paramLabel = "PROPERTY=VALUE", description = "An equality filter; repeatable.")
    List<String> where;

    @Option(names = "--exact", description = "Also count every range exactly (parallel, slower).")
    boolean exact;

    @Option(names = "--parallelism", defaultValue = "4", paramLabel = "N",
            description = "Ranges counted at once with --exact (default: ${DEFAULT-VALUE}).")
    int parallelism;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write both plans as JSON.")
    Path json;

    public PreviewCommand(KeyRangerCli.Context context) {
        this.context = context;
    }

    @Override
    public void run() {
        ConnectionSpec target = connection.resolve(context.profiles(), context.env());
        List<StructuredQuery.PropertyFilter> filters =
                new ArrayList<>(WhereClause.parseAll(where));
        JobQuery query = null;
        if (gql != null) {
            query = JobQuery.of(Gql.parse(gql, target.projectId(), target.namespace()), KeyOrder.PRODUCTION);
            if (kind != null && !kind.equals(query.kind())) {
                throw new KeyRangerException("The query reads kind '" + query.kind() + "' but --kind is '" + kind
                        + "': give the same kind, or leave --kind out.");
            }
            kind = query.kind();
            filters.addAll(query.serverFilters());
        }
        if (kind == null) {
            throw new KeyRangerException("Say what to plan: --kind KIND, or --gql \"SELECT * FROM KIND WHERE ...\".");
        }
        PlanRequest request = new PlanRequest(target.namespace(), kind, filters, shards, oversample);
        PrintWriter err = spec.commandLine().getErr();
        Session session = asOf.open(Session.open(target), err);
        Datastore datastore = session.datastore();
        DatastoreGateway gateway = new DatastoreGateway(datastore, session.spec().server());
        if (!gateway.kindExists(target.namespace(), kind)) {
            throw JobKinds.notFound(kind, target.namespace(), gateway.kinds(target.namespace(), false),
                    session.past() ? " as of " + session.asOf().time() : "");
        }
        if (query != null) { // a typo of a property plans the kind's entities all the same: say so, as run does
            SpecChecks.queryWarnings(query.query(), gateway.properties(target.namespace(), kind),
                    !gateway.listsEverything()).forEach(w -> err.println("keyranger: warning: " + w));
        }
        if (!session.readOnly()) { // a read-only connection, or the past, writes nothing, bookkeeping included
            gateway.remember(target.namespace(), kind);
        }
        ShardPreview preview = new ShardPlanner(datastore, session.order())
                .preview(request, new ConsoleProgress(err, "Planning"), Cancellation.NEVER);
        if (exact) {
            RangeCounter counter = new RangeCounter(new KeyCounter(datastore), parallelism);
            preview = preview.withPlans(
                    counter.countExactly(preview.scatter(), request,
                            RangeCounter.Listener.ofRanges(new ConsoleProgress(err, "Counting scatter ranges")),
                            Cancellation.NEVER),
                    counter.countExactly(preview.lexicographic(), request,
                            RangeCounter.Listener.ofRanges(new ConsoleProgress(err, "Counting lexicographic ranges")),
                            Cancellation.NEVER));
        }
        print(preview, spec.commandLine().getOut());
        if (query != null) {
            query.explain().forEach(line -> spec.commandLine().getOut().println("Query: " + line));
            if (query.filtersOnClient()) {
                spec.commandLine().getOut().println("Query: the sizes above count the entities the server filters "
                        + "let through; the job maps only those that also meet the client conditions.");
            }
        }
        if (json != null) {
            PreviewJson.write(preview, json);
            spec.commandLine().getOut().println("Wrote " + json);
        }
    }

    private void print(ShardPreview preview, PrintWriter out) {
        out.printf("%s in %s: %d ranges from %,d scatter samples (%s); %s%s%n", kind,
                preview.request().namespace().isEmpty() ? "(default)" : preview.request().namespace(),
                preview.scatter().ranges().size(), preview.samples(), preview.scatter().method().label(),
                preview.total().describe(), preview.total().exact() ? "" : "; --exact counts them");
        out.printf("%4s  %-36s %-36s %10s %10s%n", "#", "START", "END", "ESTIMATED", "EXACT");
        for (PlannedRange range : preview.scatter().ranges()) {
            out.printf("%4d  %-36s %-36s %10d %10s%n", range.index(), bound(range.range().start(), "(first key)"),
                    bound(range.range().end(), "(last key)"), range.estimated(),
                    range.exact() == null ? "-" : range.exact().toString());
        }
        out.printf("%nBALANCE          %10s %8s  %s%n", "MAX/MEAN", "CV", "FROM");
        balance(out, "scatter", preview.scatter());
        balance(out, "lexicographic", preview.lexicographic());
        for (String note : preview.notes()) {
            out.println("Note: " + note);
        }
        out.flush();
    }

    private static void balance(PrintWriter out, String name, ShardPlan plan) {
        Balance balance = plan.balance();
        out.printf("%-16s %10.3f %8.3f  %s counts, %d ranges%n", name, balance.maxOverMean(), balance.cv(),
                plan.hasExactCounts() ? "exact" : "estimated", plan.ranges().size());
    }

    private static String bound(Key key, String open) {
        if (key == null) {
            return open;
        }
        String text = KeyFormat.format(key);
        return text.length() > 36 ? text.substring(0, 35) + "…" : text;
    }
}
