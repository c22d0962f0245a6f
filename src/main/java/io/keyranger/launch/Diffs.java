package io.keyranger.launch;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.backup.ExportDiff;
import io.keyranger.formats.managed.ExportContents;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.Session;
import io.keyranger.keys.KeyFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * The comparisons of one connection with what an export, the database's past or another database holds
 * ({@link DiffRequest}), as the
 * command line and the app both run them: the request is checked (a kind the past did not hold, a query that selects
 * part of the entities, a resume with no state to go on from), then {@link ExportDiff} compares, writing the key lists
 * where the request says. The views and commands only show what it found.
 */
public final class Diffs {
    private final Session session;

    public Diffs(Session session) {
        this.session = session;
    }

    /**
     * One entity of a comparison.
     *
     * @param key    its key
     * @param before as the export or the past held it, or null
     * @param live   as it lives, or null
     * @param same   whether live is the same, as a restore of {@code before} would write it
     */
    public record OneEntity(Key key, Entity before, Entity live, boolean same) {
    }

    /**
     * Compares as {@code request} says, telling {@code progress} how far it is, until done or {@code cancellation}
     * stops it (the result says which): {@link #prepare}, then {@link Prepared#run}.
     */
    public ExportDiff.Result run(DiffRequest request, ExportDiff.Progress progress, Cancellation cancellation)
            throws IOException {
        return prepare(request).run(progress, cancellation);
    }

    /**
     * Checks {@code request} and opens its sides, before anything is compared: a kind the past did not hold or the
     * export lacks, a query that selects part of the entities and a resume with no folder to go on from are refused
     * with a message the user can act on. The key folder is made.
     */
    public Prepared prepare(DiffRequest request) throws IOException {
        requireHeld(request);
        if (request.keysOut() != null) {
            Files.createDirectories(request.keysOut());
        }
        ExportDiff diff = open(request, request.namespace(), request.gql(), request.keys());
        if (request.resume() == DiffRequest.Resume.GO_ON && request.keysOut() == null) {
            throw new KeyRangerException("--resume goes on from the state in the --keys-out folder of the stopped "
                    + "diff: give that folder.");
        }
        boolean resume = request.resume() == DiffRequest.Resume.GO_ON
                || request.resume() == DiffRequest.Resume.GO_ON_IF_STOPPED && request.keysOut() != null
                && ExportDiff.stoppedIn(request.keysOut());
        return new Prepared(request, diff.pageSize(request.pageSize()).parallel(request.parallel())
                .examples(request.examples()).writeKeys(request.keysOut()).resume(resume));
    }

    /** A comparison checked and opened ({@link #prepare}), to run once. */
    public static final class Prepared {
        private final DiffRequest request;
        private final ExportDiff diff;

        private Prepared(DiffRequest request, ExportDiff diff) {
            this.request = request;
            this.diff = diff;
        }

        /** Compares until done or stopped; a comparison that goes on when stopped forgets its state once done. */
        public ExportDiff.Result run(ExportDiff.Progress progress, Cancellation cancellation) throws IOException {
            ExportDiff.Result result = diff.run(true, progress, cancellation);
            if (request.resume() == DiffRequest.Resume.GO_ON_IF_STOPPED && request.keysOut() != null
                    && !result.cancelled()) {
                ExportDiff.forgetState(request.keysOut());
            }
            return result;
        }
    }

    /**
     * {@code key} of the request's kind as its export or past moment held it, and as it lives ({@code read}: how many
     * of an export's entities were read so far, every 10,000, as an export is read through to find it). Refused
     * when it is of another kind, or neither side holds it.
     */
    public OneEntity entity(DiffRequest request, Key key, LongConsumer read) {
        requireHeld(request);
        if (!key.getKind().equals(request.kind())) {
            throw new KeyRangerException("The key " + KeyFormat.format(key) + " is not of kind " + request.kind()
                    + ".");
        }
        Entity before;
        if (request.before() instanceof DiffRequest.Past past) {
            before = session.asOf(past.asOf()).datastore().get(key);
        } else if (request.before() instanceof DiffRequest.Database other) {
            before = SourceDatabase.entity(other.source(), session, key);
        } else {
            before = ExportContents.scan(((DiffRequest.Export) request.before()).export(),
                    session.spec().projectId(), "", key, read::accept, Cancellation.NEVER).found();
        }
        Entity live = session.datastore().get(key);
        if (before == null && live == null) {
            throw new KeyRangerException("No entity " + KeyFormat.format(key) + " " + request.before().where()
                    + " nor live.");
        }
        ExportDiff diff = open(request, key.getNamespace(), null, null);
        return new OneEntity(key, before, live, before != null && live != null && diff.sameAsExport(before, live));
    }

    /**
     * Refuses a kind the database did not hold at the past moment compared, and the past of a server that keeps none
     * ({@link Session#asOf}); an export's kind is checked by {@link #open}.
     */
    private void requireHeld(DiffRequest request) {
        if (request.before() instanceof DiffRequest.Past past) {
            PastKinds.requireHeld(session, past.asOf(), session.live(), request.namespace(), request.kind());
        } else if (request.before() instanceof DiffRequest.Database other) {
            SourceDatabase.requireHeld(other.source(), request.kind());
        }
    }

    /** The comparison of the request's side; an export lacking the kind, or a query selecting part of it, refused. */
    private ExportDiff open(DiffRequest request, String namespace, String gql, Path keys) {
        if (request.before() instanceof DiffRequest.Past past) {
            return ExportDiff.ofPast(session, past.asOf(), namespace, request.kind(), gql, keys);
        }
        if (request.before() instanceof DiffRequest.Database other) {
            return ExportDiff.ofDatabase(session, other.source(), namespace, request.kind(), gql, keys);
        }
        return ExportDiff.of(session, ((DiffRequest.Export) request.before()).export(), namespace, request.kind(),
                gql, keys);
    }
}
