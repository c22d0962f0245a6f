package io.keyranger.cli;

import io.keyranger.NearestName;
import io.keyranger.AppDirs;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ServerErrors;
import io.keyranger.Version;
import io.keyranger.files.LocalFileStore;
import io.keyranger.profile.ProfileStore;
import io.keyranger.profile.SettingsStore;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;

/** The {@code keyranger} command line; with no command it opens the GUI. */
@Command(name = "keyranger", mixinStandardHelpOptions = true, versionProvider = KeyRangerCli.VersionProvider.class,
        resourceBundle = "io.keyranger.cli.OptionTexts",
        description = "Bulk operations on Google Cloud Datastore (Firestore in Datastore mode).",
        subcommands = {GuiCommand.class, DemoCommand.class, KindsCommand.class, PreviewCommand.class, RunCommand.class,
            JobsCommand.class, RevertCommand.class, CounterCommand.class, EntityCommand.class,
            ExportInfoCommand.class, DiffCommand.class, RestoreCommand.class, MigrateCommand.class})
public final class KeyRangerCli implements Runnable {
    public static final int EXIT_USER_ERROR = 1;
    private static final Logger LOG = LoggerFactory.getLogger(KeyRangerCli.class);

    private final Context context;

    public KeyRangerCli(Context context) {
        this.context = context;
    }

    /** What commands need from outside: where settings live, the environment, and how to open the GUI. */
    public record Context(Path configDir, Map<String, String> env, GuiStarter gui) {
        public ProfileStore profiles() {
            return new ProfileStore(configDir);
        }

        public SettingsStore settings() {
            return new SettingsStore(configDir);
        }
    }

    @Override
    public void run() {
        new GuiCommand(context).run();
    }

    /** Runs the command line and returns the exit code. */
    public static int execute(Context context, PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new KeyRangerCli(context), new ContextFactory(context));
        RunCommand.addTemplatesHelp(cli.getSubcommands().get("run"));
        cli.registerConverter(Path.class, KeyRangerCli::localPath);
        cli.setOut(out);
        cli.setErr(err);
        reportErrorsInOneLine(cli);
        return cli.execute(args);
    }

    /**
     * A failed command prints one line a user can act on and exits {@link #EXIT_USER_ERROR}; the stack trace goes to
     * the log only. An unknown option or argument is one line too, with picocli's nearest suggestion, and exits with
     * picocli's usage code. Shared with the benchmark jar's commands.
     */
    public static void reportErrorsInOneLine(CommandLine cli) {
        CommandLine.IParameterExceptionHandler usage = cli.getParameterExceptionHandler();
        cli.setParameterExceptionHandler((e, args) -> {
            if (!(e instanceof CommandLine.UnmatchedArgumentException unmatched)) {
                return usage.handleParseException(e, args);
            }
            CommandLine command = e.getCommandLine();
            command.getErr().println("keyranger: " + unmatched(unmatched, command));
            command.getErr().flush();
            return command.getCommandSpec().exitCodeOnInvalidInput();
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof KeyRangerException) {
                LOG.info("command failed: {}", e.getMessage(), e);
                commandLine.getErr().println("keyranger: " + e.getMessage());
            } else {
                LOG.error("unexpected error", e);
                commandLine.getErr().println("keyranger: " + (ServerErrors.isServerError(e) ? "" : "unexpected error: ")
                        + ServerErrors.describe(e) + " (details in " + AppDirs.logDir().resolve("keyranger.log") + ")");
            }
            commandLine.getErr().flush();
            return EXIT_USER_ERROR;
        });
    }

    /**
     * "Unknown option '--kindd' for 'keyranger run'. Did you mean '--kind'?": the first argument picocli could not
     * match (an unknown option's value after it, or after its '=', is no option of its own), and the nearest of
     * picocli's suggestions (its only one, or all of them when none is near).
     */
    private static String unmatched(CommandLine.UnmatchedArgumentException e, CommandLine at) {
        String command = at.getCommandSpec().qualifiedName();
        List<String> args = e.getUnmatched();
        String given = args.isEmpty() ? "" : args.get(0);
        String first = given.startsWith("-") && given.contains("=") ? given.substring(0, given.indexOf('=')) : given;
        List<String> suggested = e.getSuggestions();
        Optional<String> nearest = suggested.size() == 1 ? Optional.of(suggested.get(0))
                : NearestName.of(first, suggested);
        String suggestion = nearest.map(s -> " Did you mean '" + s + "'?")
                .orElse(suggested.isEmpty() ? "" : " Did you mean one of: " + String.join(", ", suggested) + "?");
        String what = first.startsWith("-") ? "Unknown option" : at.getSubcommands().isEmpty() ? "Unexpected argument"
                : "Unknown command";
        return what + " '" + first + "' for '" + command
                + "'." + suggestion + " '" + command + " --help' lists what it takes.";
    }

    /**
     * A file option's path; a cloud store's location (gs://...), which a path would silently turn into a local
     * "gs:/..." that is not found, is refused saying where it can be read.
     */
    private static Path localPath(String value) {
        try {
            return LocalFileStore.path(value);
        } catch (KeyRangerException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /** Prints the version from the pom. */
    public static final class VersionProvider implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"KeyRanger " + Version.get()};
        }
    }

    /** Hands the shared context to commands that take it in their constructor. */
    private record ContextFactory(Context context) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            try {
                return type.getDeclaredConstructor(Context.class).newInstance(context);
            } catch (NoSuchMethodException e) {
                return CommandLine.defaultFactory().create(type);
            }
        }
    }
}
