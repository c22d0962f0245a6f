package io.keyranger.beam;

import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.files.LocalFileStore;
import io.keyranger.job.JobSpec;
import io.keyranger.launch.Consent;
import io.keyranger.job.JobInput;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import java.nio.file.Path;
import java.util.List;

/**
 * A pipeline's options read into KeyRanger's own connection and job spec, with the same checks and messages as
 * {@code keyranger run}: the mapper spec and its parameters, the job id, and the write confirmation for a project that
 * is not an emulator.
 *
 * @param connection where the data is
 * @param spec       the job
 * @param datastoreIo whether this is the benchmark's DatastoreIO peer rather than a KeyRanger job
 */
record BeamRequest(ConnectionSpec connection, JobSpec spec, boolean datastoreIo) {
    static BeamRequest from(KeyRangerOptions o) {
        boolean datastoreIo = switch (o.getPipeline()) {
            case "keyranger" -> false;
            case "datastoreio" -> true;
            default -> throw new KeyRangerException("--pipeline is keyranger or datastoreio (got '" + o.getPipeline()
                    + "').");
        };
        if (o.getKind() == null || o.getKind().isBlank()) {
            throw new KeyRangerException("Say which kind to run over: --kind=KIND.");
        }
        ConnectionSpec conn = connection(o);
        MapperSpec mapper = mapper(o);
        if (datastoreIo && (!mapper.template().equals("increment") || mapper.whereExpression() != null
                || mapper.query() != null)) {
            String got = mapper.template().equals("increment") ? "a CEL or GQL where" : "'" + mapper.template() + "'";
            throw new KeyRangerException("--pipeline=datastoreio runs the increment template only, with at most a "
                    + "list of equality filters as its \"where\" (Beam's DatastoreIO query): got " + got + ".");
        }
        checkMapper(mapper, conn, o);
        if (!datastoreIo && (o.getJobId() == null || o.getJobId().isBlank())) {
            throw new KeyRangerException("Give the job an id: --jobId=ID (a rerun with the same id finishes a killed "
                    + "job exactly once).");
        }
        String jobId = datastoreIo ? "datastoreio" : o.getJobId();
        JobSpec spec = new JobSpec(jobId, conn.namespace(), o.getKind(), mapper, Math.max(1, o.getShards()),
                Math.max(1, Math.min(512, o.getShards())), o.getPageSize(), 0);
        return new BeamRequest(conn, spec, datastoreIo);
    }

    /** The job {@code spec} (a migration's step) on {@code conn}, in the spec's namespace. */
    static BeamRequest of(ConnectionSpec conn, JobSpec spec) {
        return new BeamRequest(conn.withNamespace(spec.namespace()), spec, false);
    }

    /**
     * What a pipeline's {@code mapper} must be on its runner, checked before anything is written: a file it writes or
     * reads where the workers reach it, and the write confirmation for a project that is not an emulator.
     */
    static void checkMapper(MapperSpec mapper, ConnectionSpec conn, KeyRangerOptions o) {
        Template template = Mappers.template(mapper.template());
        String output = template.name().equals("export") ? Mappers.create(mapper).outputFile() : null;
        if (output != null && !LocalFileStore.isRemote(output) && !o.getRunner().getSimpleName().equals("DirectRunner")
                && !FlinkLocal.isLocal(o)) {
            throw new KeyRangerException("The export's \"file\" " + output + " is on this machine, which "
                    + o.getRunner().getSimpleName() + "'s workers do not share: give a location they all reach, "
                    + "such as gs://BUCKET/FOLDER/export.jsonl.");
        }
        checkInputReachable(mapper, o);
        if (!o.getDryRun()) {
            Consent.of(conn, mapper, o.getPageSize(), List.of(), false, -1, PriceTable.BUILT_IN, null).require(
                    o.getConfirmProject(), "pass --confirmProject=" + conn.projectId());
        }
    }

    /** Where the data is, as the options name it (an emulator asked which one it is). */
    static ConnectionSpec connection(KeyRangerOptions o) {
        String project = firstSet(o.getFirestoreReadProjectId(), o.getProject());
        if (project == null) {
            throw new KeyRangerException("Say which project holds the data: --project=ID (or "
                    + "--firestoreReadProjectId=ID).");
        }
        String emulator = o.getEmulatorHost() == null || o.getEmulatorHost().isBlank() ? null : o.getEmulatorHost();
        String model = o.getModelHost() == null || o.getModelHost().isBlank() ? null : o.getModelHost();
        if (emulator != null && model != null) {
            throw new KeyRangerException("Give --emulatorHost or --modelHost, not both.");
        }
        String host = emulator != null ? emulator : model;
        if (model != null) {
            DatastoreConnector.checkEmulatorReachable(model);
        }
        // an emulator host is asked which emulator it is (legacy, or Firestore in Datastore mode) once, here: the
        // workers plan and commit with the key order and limits the job's config then carries
        return DatastoreConnector.identify(new ConnectionSpec(host, project,
                firstSet(o.getFirestoreReadDatabaseId(), o.getDatabaseId()),
                firstSet(o.getFirestoreReadNamespace(), o.getNamespace()), null, false,
                model != null ? ServerType.MODEL : host != null ? ServerType.EMULATOR : ServerType.PRODUCTION));
    }

    /**
     * An import's or restore's input is read by the launcher (its check) and by every worker from where its range
     * starts, through the pipeline's file systems: a local path only on a runner whose workers share this machine
     * (the DirectRunner, Flink's local mini-cluster), else a location they all reach (gs://...).
     */
    private static void checkInputReachable(MapperSpec mapper, KeyRangerOptions o) {
        String runner = o.getRunner().getSimpleName();
        if (runner.equals("DirectRunner") || FlinkLocal.isLocal(o)) {
            return;
        }
        for (String location : JobInput.of(mapper).files()) {
            if (!LocalFileStore.isRemote(location)) {
                throw new KeyRangerException("The import's input " + location + " is on this machine, "
                        + "which " + runner + "'s workers do not share: give a location they all reach, such as "
                        + "gs://BUCKET/FOLDER (copy it there with gsutil cp -r), or run the import or restore here "
                        + "with 'keyranger run' or 'keyranger restore', or on the DirectRunner.");
            }
        }
    }

    private static MapperSpec mapper(KeyRangerOptions o) {
        boolean file = o.getMapper() != null && !o.getMapper().isBlank();
        boolean inline = o.getMapperSpec() != null && !o.getMapperSpec().isBlank();
        if (file == inline) {
            throw new KeyRangerException("Give the mapper either as a file (--mapper=FILE.json) or inline "
                    + "(--mapperSpec='{\"template\": \"count\"}'), not " + (file ? "both." : "neither."));
        }
        if (file) {
            return MapperSpec.read(Path.of(o.getMapper()));
        }
        MapperSpec spec = MapperSpec.parse(o.getMapperSpec());
        Mappers.template(spec.template()).validate(spec);
        return spec;
    }

    private static String firstSet(String preferred, String fallback) {
        return preferred != null && !preferred.isBlank() ? preferred : fallback;
    }
}
