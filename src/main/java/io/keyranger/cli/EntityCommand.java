package io.keyranger.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.Session;
import io.keyranger.edit.EntityEditor;
import io.keyranger.keys.KeyFormat;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.query.Gql;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Reads, writes and deletes single entities, as the app's editor does: typed JSON, checked transactions. */
@Command(name = "entity", mixinStandardHelpOptions = true, description = "Read, write or delete single entities.",
        subcommands = {EntityCommand.Get.class, EntityCommand.Put.class, EntityCommand.Delete.class})
public final class EntityCommand implements Runnable {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "entity needs a subcommand: "
                + "'entity get KEY', 'entity put FILE.json' or 'entity delete KEY...'");
    }

    private static Key key(String text, ConnectionSpec conn) {
        return Gql.key(text, conn.projectId(), conn.namespace());
    }

    /** {@code entity get "KEY(Account, 5)"}: the entity as typed JSON, the format put reads. */
    @Command(name = "get", mixinStandardHelpOptions = true, description = "Print an entity as typed JSON.")
    static final class Get implements Runnable {
        private final KeyRangerCli.Context context;

        @Spec
        CommandSpec spec;

        @Mixin
        ConnectionOptions connection = new ConnectionOptions();

        @Parameters(paramLabel = "KEY", description = "The key, e.g. \"KEY(Account, 5)\" or \"KEY(Org, 'acme', Account, 'a1')\".")
        String key;

        @Option(names = "--export", paramLabel = "DIR", description = "Read it from a managed export (its folder or "
                + "metadata file) instead of the database; exports are not indexed, so this reads the export through.")
        Path export;

        @Mixin
        AsOf asOf = new AsOf();

        Get(KeyRangerCli.Context context) {
            this.context = context;
        }

        @Override
        public void run() {
            asOf.refuseWith(export);
            if (export != null) {
                Key k = Gql.key(key, ExportInfoCommand.EXPORT_PROJECT, connection.namespaceOrNull() == null ? ""
                        : connection.namespaceOrNull());
                Entity found = ExportInfoCommand.scan(ManagedExport.open(export), k,
                        spec.commandLine().getErr()).found();
                if (found == null) {
                    throw new KeyRangerException("No entity " + KeyFormat.format(k) + " in the export " + export + ".");
                }
                spec.commandLine().getOut().println(EntityCodec.encode(found).toPrettyString());
                return;
            }
            ConnectionSpec conn = connection.resolve(context.profiles(), context.env());
            Key k = key(key, conn);
            Session session = asOf.open(Session.open(conn), spec.commandLine().getErr());
            Entity entity = session.datastore().get(k);
            if (entity == null) {
                throw new KeyRangerException("No entity " + KeyFormat.format(k)
                        + (session.past() ? " as of " + session.asOf().time() : "") + ".");
            }
            spec.commandLine().getOut().println(EntityCodec.encode(entity).toPrettyString());
        }
    }

    /** {@code entity put FILE.json}: creates the entity, or replaces it as it is now. */
    @Command(name = "put", mixinStandardHelpOptions = true,
            description = "Create an entity from typed JSON (as 'entity get' prints it), or replace it.")
    static final class Put implements Runnable {
        private final KeyRangerCli.Context context;

        @Spec
        CommandSpec spec;

        @Mixin
        ConnectionOptions connection = new ConnectionOptions();

        @Parameters(paramLabel = "FILE.json", description = "The entity; - reads standard input.")
        String file;

        @Mixin
        ConfirmProject confirm = new ConfirmProject();

        Put(KeyRangerCli.Context context) {
            this.context = context;
        }

        @Override
        public void run() {
            ConnectionSpec conn = connection.resolve(context.profiles(), context.env());
            Entity entity = read(file, conn);
            confirm(conn, confirm.id, "entity put");
            Session session = Session.open(conn);
            Entity current = session.datastore().get(entity.getKey());
            EntityEditor editor = new EntityEditor(session.datastore(), conn, session.limits());
            EntityEditor.Edit edit = current == null ? editor.create(entity) : editor.update(current, entity);
            spec.commandLine().getOut().println((current == null ? "Created " : "Replaced ")
                    + KeyFormat.format(entity.getKey()) + " (" + edit.after().size() + " entity).");
        }

        private static Entity read(String file, ConnectionSpec conn) {
            String text;
            try {
                text = file.equals("-") ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
                        : Files.readString(Path.of(file));
            } catch (NoSuchFileException e) {
                throw new KeyRangerException("File not found: " + file);
            } catch (IOException e) {
                throw new KeyRangerException("Cannot read " + file + ": " + e.getMessage());
            }
            JsonNode root;
            try {
                root = JSON.readTree(text);
            } catch (IOException e) {
                throw new KeyRangerException(file + " is not JSON: " + e.getMessage().lines().findFirst().orElse(""));
            }
            if (root == null || !root.isObject() || !root.has("key")) {
                throw new KeyRangerException(file + " needs {\"key\": {...}, \"properties\": {...}}, as 'entity get' "
                        + "prints it.");
            }
            try {
                return EntityCodec.decode(root, conn.projectId(), conn.databaseId());
            } catch (KeyRangerException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new KeyRangerException(file + " is not an entity: " + e.getMessage());
            }
        }
    }

    /** {@code entity delete KEY...}: deletes them as they are now, in checked transactions. */
    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete entities by key.")
    static final class Delete implements Runnable {
        private final KeyRangerCli.Context context;

        @Spec
        CommandSpec spec;

        @Mixin
        ConnectionOptions connection = new ConnectionOptions();

        @Parameters(paramLabel = "KEY", arity = "1..*", description = "The keys, e.g. \"KEY(Account, 5)\".")
        List<String> keys;

        @Mixin
        ConfirmProject confirm = new ConfirmProject();

        Delete(KeyRangerCli.Context context) {
            this.context = context;
        }

        @Override
        public void run() {
            ConnectionSpec conn = connection.resolve(context.profiles(), context.env());
            List<Key> parsed = keys.stream().map(k -> key(k, conn)).toList();
            confirm(conn, confirm.id, "entity delete");
            Session session = Session.open(conn);
            List<Entity> found = new ArrayList<>();
            List<Entity> fetched = session.datastore().fetch(parsed.toArray(new Key[0]));
            for (int i = 0; i < parsed.size(); i++) {
                if (fetched.get(i) == null) {
                    throw new KeyRangerException("No entity " + KeyFormat.format(parsed.get(i))
                            + ": nothing was deleted.");
                }
                found.add(fetched.get(i));
            }
            new EntityEditor(session.datastore(), conn, session.limits()).delete(found);
            spec.commandLine().getOut().println("Deleted " + found.size() + " "
                    + (found.size() == 1 ? "entity." : "entities."));
        }
    }

    private static void confirm(ConnectionSpec conn, String confirmed, String what) {
        if (conn.readOnly()) {
            throw new KeyRangerException("This connection is read-only: '" + what + "' is refused on it.");
        }
        if (!conn.isLocal() && !conn.projectId().equals(confirmed)) {
            throw new KeyRangerException("'" + what + "' writes to project " + conn.projectId() + ", which is not an "
                    + "emulator: add --confirm-project " + conn.projectId() + " to go ahead.");
        }
    }
}
