package io.keyranger.bench.cli;

import io.keyranger.AppDirs;
import io.keyranger.cli.KeyRangerCli;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The entry point of {@code keyranger-bench.jar}: the benchmarks and the production model server they use, kept out of
 * the app so that the product's jar and installer carry only the product.
 */
@Command(name = "keyranger-bench", mixinStandardHelpOptions = true,
        versionProvider = KeyRangerCli.VersionProvider.class,
        description = "KeyRanger's benchmarks and its model of production Datastore (benchmarks only).",
        subcommands = {BenchCommand.class, ModelServerCommand.class, SimulateCommand.class})
public final class BenchMain implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        if (System.getProperty("keyranger.log.dir") == null) {
            System.setProperty("keyranger.log.dir", AppDirs.logDir().toString());
        }
        System.exit(execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs a command and returns its exit code, as {@link KeyRangerCli#execute} does for the app's. */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new BenchMain());
        cli.setOut(out);
        cli.setErr(err);
        KeyRangerCli.reportErrorsInOneLine(cli);
        return cli.execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "keyranger-bench needs a command: 'bench', 'simulate' or 'model-server'.");
    }
}
