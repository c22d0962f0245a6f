package io.keyranger.datastore;

import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.longrunning.OperationFuture;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.admin.v1.DatastoreAdminClient;
import com.google.cloud.datastore.admin.v1.DatastoreAdminSettings;
import com.google.datastore.admin.v1.EntityFilter;
import com.google.datastore.admin.v1.ExportEntitiesMetadata;
import com.google.datastore.admin.v1.ExportEntitiesRequest;
import com.google.datastore.admin.v1.ExportEntitiesResponse;
import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Managed exports that the server writes: the Datastore Admin API's {@code exportEntities}, what users run as
 * {@code gcloud datastore export}. It costs no local bandwidth; in production it writes to a {@code gs://} bucket, and
 * the emulator serves the same call with a local folder (so this path is tested). A backup taken before a job is
 * recorded beside the job ({@link #record}), so that {@code jobs} names it.
 */
public final class ServerExports {
    static final String BACKUP_KIND = BookkeepingKinds.PREFIX + "Backup";
    private static final long POLL_MILLIS = 2_000;

    private ServerExports() {
    }

    /**
     * Exports {@code kinds} of {@code namespace} to {@code outputPrefix} and waits for the export to finish; returns
     * the URL of its overall metadata file (on the emulator, its folder). Cancelling stops waiting and asks the server
     * to cancel the export.
     */
    public static String export(ConnectionSpec spec, String outputPrefix, String namespace, List<String> kinds,
                                Consumer<String> progress, Cancellation cancellation) {
        checkPrefix(spec, outputPrefix);
        ExportEntitiesRequest request = ExportEntitiesRequest.newBuilder().setProjectId(spec.projectId())
                .setOutputUrlPrefix(outputPrefix)
                .setEntityFilter(EntityFilter.newBuilder().addAllKinds(kinds).addNamespaceIds(namespace)).build();
        try (DatastoreAdminClient client = DatastoreAdminClient.create(settings(spec))) {
            OperationFuture<ExportEntitiesResponse, ExportEntitiesMetadata> operation =
                    client.exportEntitiesAsync(request);
            while (true) {
                if (cancellation.isCancelled()) {
                    operation.cancel(true);
                    throw new CancellationException("The export to " + outputPrefix + " was cancelled.");
                }
                try {
                    return operation.get(POLL_MILLIS, TimeUnit.MILLISECONDS).getOutputUrl();
                } catch (TimeoutException stillRunning) {
                    progress.accept(describe(operation));
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new KeyRangerException("The managed export to " + outputPrefix + " failed: " + cause.getMessage()
                    + ". Check that the bucket exists and that the service account may write to it (roles/"
                    + "datastore.importExportAdmin and storage write access).", cause);
        } catch (IOException e) {
            throw new KeyRangerException("Cannot reach the Datastore Admin API: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("Interrupted while waiting for the export to " + outputPrefix);
        }
    }

    /** Records that the job {@code jobId} was backed up to {@code url}; {@link #backupsOf} reads it back. */
    public static void record(Datastore datastore, String jobId, String url) {
        datastore.put(Entity.newBuilder(key(datastore, jobId)).set("url", url)
                .set("at", Timestamp.now()).build());
    }

    /** The backups recorded for these jobs, by job id (jobs without one are left out), read in one lookup per 1,000. */
    public static Map<String, String> backupsOf(Datastore datastore, List<String> jobIds) {
        Map<String, String> found = new HashMap<>();
        for (int from = 0; from < jobIds.size(); from += 1_000) { // a lookup takes at most 1,000 keys
            datastore.fetch(jobIds.subList(from, Math.min(jobIds.size(), from + 1_000)).stream()
                    .map(id -> key(datastore, id)).toArray(Key[]::new)).stream()
                    .filter(e -> e != null).forEach(e -> found.put(e.getKey().getName(), e.getString("url")));
        }
        return found;
    }

    private static Key key(Datastore datastore, String jobId) {
        return datastore.newKeyFactory().setNamespace("").setKind(BACKUP_KIND).newKey(jobId);
    }

    private static String describe(OperationFuture<ExportEntitiesResponse, ExportEntitiesMetadata> operation) {
        try {
            ExportEntitiesMetadata metadata = operation.peekMetadata() == null ? null : operation.peekMetadata().get();
            if (metadata != null && metadata.hasProgressEntities()) {
                return String.format("Exporting on the server: %,d of about %,d entities",
                        metadata.getProgressEntities().getWorkCompleted(),
                        metadata.getProgressEntities().getWorkEstimated());
            }
        } catch (ExecutionException | InterruptedException | RuntimeException unknown) {
            // progress is a courtesy
        }
        return "Exporting on the server…";
    }

    private static void checkPrefix(ConnectionSpec spec, String prefix) {
        if (!spec.server().hasManagedExportApi()) {
            throw new KeyRangerException((spec.server() == ServerType.MODEL ? "The production model server"
                    : "The Firestore emulator in Datastore mode") + " has no Admin API managed export (:export "
                    + "answers 404 there), so --backup-to cannot back up on it. Back up with KeyRanger's own managed "
                    + "export first: keyranger run --kind KIND --mapper FILE.json, FILE.json being {\"template\": "
                    + "\"export\", \"format\": \"managed\", \"file\": \"/a/new/folder\"}; keyranger restore "
                    + "--export /a/new/folder reads it back.");
        }
        if (spec.isLocal()) {
            if (!Path.of(prefix).isAbsolute() || Files.exists(Path.of(prefix))) {
                throw new KeyRangerException("On the emulator the export goes to a local folder: give an absolute path "
                        + "that does not exist yet (got " + prefix + ").");
            }
            return;
        }
        if (!prefix.matches("gs://[a-z0-9][-a-z0-9_.]{1,220}(/.*)?")) {
            throw new KeyRangerException("A managed export goes to a Cloud Storage bucket: give gs://BUCKET or "
                    + "gs://BUCKET/PATH (got " + prefix + ").");
        }
    }

    private static DatastoreAdminSettings settings(ConnectionSpec spec) throws IOException {
        if (spec.isLocal()) {
            return DatastoreAdminSettings.newHttpJsonBuilder().setEndpoint("http://" + spec.emulatorHost())
                    .setCredentialsProvider(NoCredentialsProvider.create()).build();
        }
        return DatastoreAdminSettings.newBuilder()
                .setCredentialsProvider(FixedCredentialsProvider.create(DatastoreConnector.loadCredentials(spec)))
                .build();
    }
}
