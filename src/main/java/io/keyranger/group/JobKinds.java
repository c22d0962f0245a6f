package io.keyranger.group;

import com.google.cloud.datastore.Datastore;
import io.keyranger.KeyRangerException;
import io.keyranger.NearestName;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.ServerType;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The kinds a job names, checked before it runs: each named kind must exist in its namespace and be a user's kind (not
 * KeyRanger's bookkeeping, not a reserved {@code __*__} kind), or all of a namespace's kinds where the server can list
 * them; and the one refusal of a kind that is not there, with the nearest name, that every command gives.
 */
public final class JobKinds {
    private JobKinds() {
    }

    /**
     * KeyRanger's bookkeeping kinds in {@code namespace} (its jobs, ledgers, counters and undo records live in the
     * default one): what a job over every kind leaves out unless asked to take them too (an export's
     * --include-bookkeeping).
     */
    public static List<String> bookkeeping(Datastore datastore, ServerType server, String namespace) {
        return new DatastoreGateway(datastore, server).kinds(namespace, true).stream()
                .filter(BookkeepingKinds::isBookkeeping).toList();
    }

    /** As {@link #kinds(Datastore, ServerType, String, List, boolean)}, on a server whose type is found by its answers. */
    public static List<String> kinds(Datastore datastore, String namespace, List<String> named, boolean all) {
        return kinds(datastore, ServerType.PRODUCTION, namespace, named, all);
    }

    /**
     * The kinds a job over {@code named} kinds (or all of them) runs over, checked: every named kind must exist in the
     * namespace, and none may be a bookkeeping or reserved kind. All kinds: those the namespace lists, without them;
     * refused on a server that cannot list its kinds ({@link ServerType#listsKinds}), which would leave kinds out.
     */
    public static List<String> kinds(Datastore datastore, ServerType server, String namespace, List<String> named,
                                     boolean all) {
        DatastoreGateway gateway = new DatastoreGateway(datastore, server);
        List<String> present = gateway.kinds(namespace, false);
        if (all) {
            if (!gateway.listsEverything()) {
                throw new KeyRangerException("This server (the Firestore emulator in Datastore mode) cannot list "
                        + "kinds, so --all-kinds could leave some out: name them with --kind A,B. Kinds KeyRanger "
                        + "knows here" + (namespace.isEmpty() ? "" : " in namespace '" + namespace + "'") + ": "
                        + (present.isEmpty() ? "none yet" : String.join(", ", present)) + ".");
            }
            if (present.isEmpty()) {
                String where = DatastoreGateway.namespaceName(namespace);
                throw new KeyRangerException(Character.toUpperCase(where.charAt(0)) + where.substring(1)
                        + " has no kinds to map.");
            }
            return present;
        }
        LinkedHashSet<String> kinds = new LinkedHashSet<>();
        for (String kind : named) {
            String k = kind.strip();
            if (k.isEmpty()) {
                continue;
            }
            BookkeepingKinds.requireUserKind(k);
            if (!present.contains(k) && (gateway.listsEverything() || !gateway.kindExists(namespace, k))) {
                throw notFound(k, namespace, present, "");
            }
            kinds.add(k);
        }
        if (kinds.isEmpty()) {
            throw new KeyRangerException("Name at least one kind: --kind A,B or --all-kinds.");
        }
        kinds.forEach(k -> gateway.remember(namespace, k));
        return List.copyOf(kinds);
    }

    /**
     * The refusal of a kind that is not in the namespace ({@code when}: "" for now, or " as of T"), with the nearest of
     * the kinds there ({@code present}) when one is a likely typo; every command that is given a kind says it so.
     */
    public static KeyRangerException notFound(String kind, String namespace, Collection<String> present, String when) {
        return notFoundIn(kind, DatastoreGateway.namespaceName(namespace), present, when);
    }

    /** As {@link #notFound}, for a kind looked for in {@code where} ("any namespace" for a search of them all). */
    public static KeyRangerException notFoundIn(String kind, String where, Collection<String> present, String when) {
        return new KeyRangerException("Kind '" + kind + "' was not found in " + where
                + when + "." + NearestName.of(kind, present).map(n -> " Did you mean '" + n + "'?").orElse("")
                + " Run 'keyranger kinds' to list the kinds there are.");
    }
}
