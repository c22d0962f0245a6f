package io.keyranger.cli;

import com.google.cloud.datastore.Datastore;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.DatastoreConnector;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Reads and increments sharded counters. */
@Command(name = "counter", mixinStandardHelpOptions = true, description = "Read or increment a sharded counter.",
        subcommands = {CounterCommand.Get.class, CounterCommand.Inc.class})
public final class CounterCommand implements Runnable {
    @Spec
    CommandSpec spec;

    /** {@code counter} alone: a usage error naming the subcommands, not a silent exit. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "counter needs a subcommand: 'counter get NAME' or 'counter inc NAME [--by N]'");
    }

    /** {@code counter get NAME}. */
    @Command(name = "get", mixinStandardHelpOptions = true, description = "Print a counter's totals.")
    static final class Get implements Runnable {
        private final KeyRangerCli.Context context;

        @Spec
        CommandSpec spec;

        @Mixin
        ConnectionOptions connection = new ConnectionOptions();

        @Parameters(paramLabel = "NAME")
        String name;

        Get(KeyRangerCli.Context context) {
            this.context = context;
        }

        @Override
        public void run() {
            Datastore datastore = DatastoreConnector.connect(connection.resolve(context.profiles(), context.env()));
            ShardedCounter counter = ShardedCounter.existing(datastore, name);
            print(spec.commandLine().getOut(), counter);
        }
    }

    /** {@code counter inc NAME [--by N] [--shards N] [--field F]}. */
    @Command(name = "inc", mixinStandardHelpOptions = true, description = "Increment a counter (created if new).")
    static final class Inc implements Runnable {
        private final KeyRangerCli.Context context;

        @Spec
        CommandSpec spec;

        @Mixin
        ConnectionOptions connection = new ConnectionOptions();

        @Parameters(paramLabel = "NAME")
        String name;

        @Option(names = "--by", defaultValue = "1", paramLabel = "N", description = "The increment (default: 1).")
        long by;

        @Option(names = "--shards", defaultValue = "20", paramLabel = "N",
                description = "Grow the counter to at least N shards (default: 20; never shrinks).")
        int shards;

        @Option(names = "--field", defaultValue = ShardedCounter.DEFAULT_FIELD, paramLabel = "F",
                description = "The field to increment (default: ${DEFAULT-VALUE}).")
        String field;

        Inc(KeyRangerCli.Context context) {
            this.context = context;
        }

        @Override
        public void run() {
            Datastore datastore = DatastoreConnector.connect(connection.resolve(context.profiles(), context.env()));
            ShardedCounter counter = ShardedCounter.open(datastore, name, shards);
            counter.increment(field, by, 50);
            print(spec.commandLine().getOut(), counter);
        }
    }

    static void print(PrintWriter out, ShardedCounter counter) {
        Map<String, Long> totals = counter.totals();
        out.printf("%s (%d shards)%n", counter.name(), counter.shards());
        totals.forEach((field, total) -> out.printf("  %-20s %,d%n", field, total));
        out.flush();
    }
}
