package io.keyranger.beam;

import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.Hidden;

/**
 * The pipeline's options: the CLI's job options, plus the parameter names of Google's Firestore templates that the
 * Flex Template uses ({@code firestoreRead*}, {@code mapperSpec}); {@code --project} is the data's project unless
 * {@code --firestoreReadProjectId} says otherwise.
 */
public interface KeyRangerOptions extends GcpOptions {
    @Description("host:port of a Datastore emulator; omit for production")
    String getEmulatorHost();

    void setEmulatorHost(String value);

    @Description("host:port of KeyRanger's production model server (benchmarks only): local, but ordered and "
            + "limited as production")
    String getModelHost();

    void setModelHost(String value);

    @Description("A folder of migrations (NNNN_description.json): apply its pending ones to the database, in order, "
            + "each step a pipeline, recorded as 'keyranger migrate up' records them (instead of --kind and --mapper)")
    String getMigrations();

    void setMigrations(String value);

    @Description("With --migrations: apply the migrations up to this number only")
    Integer getMigrateTo();

    void setMigrateTo(Integer value);

    @Description("The kind to run the mapper over")
    String getKind();

    void setKind(String value);

    @Description("The mapper spec file (JSON), as for 'keyranger run --mapper'")
    String getMapper();

    void setMapper(String value);

    @Description("The mapper spec itself (JSON), instead of --mapper (the Flex Template's parameter)")
    String getMapperSpec();

    void setMapperSpec(String value);

    @Description("The job id: names its bookkeeping; rerun with the same id to finish a killed job")
    String getJobId();

    void setJobId(String value);

    @Description("The namespace of the data")
    @Default.String("")
    String getNamespace();

    void setNamespace(String value);

    @Description("The database id, empty for the default database")
    @Default.String("")
    String getDatabaseId();

    void setDatabaseId(String value);

    @Description("The data's project (Flex Template); defaults to --project")
    String getFirestoreReadProjectId();

    void setFirestoreReadProjectId(String value);

    @Description("The data's database (Flex Template); same as --databaseId")
    String getFirestoreReadDatabaseId();

    void setFirestoreReadDatabaseId(String value);

    @Description("The data's namespace (Flex Template); same as --namespace")
    String getFirestoreReadNamespace();

    void setFirestoreReadNamespace(String value);

    @Description("How many ranges the job starts from (cut at the job's cells)")
    @Default.Integer(16)
    int getShards();

    void setShards(int value);

    @Description("Keys per page")
    @Default.Integer(500)
    int getPageSize();

    void setPageSize(int value);

    @Description("Show what the mapper would do on a sample, and the job's estimated writes; change nothing")
    @Default.Boolean(false)
    boolean getDryRun();

    void setDryRun(boolean value);

    @Description("The project id, typed again: required to write to a project that is not an emulator")
    String getConfirmProject();

    void setConfirmProject(String value);

    @Description("Take the job over at once from a runner that holds its lease (a local run, another launch): that "
            + "runner stops at its next lease renewal, and nothing is applied twice")
    @Default.Boolean(false)
    boolean getTakeOver();

    void setTakeOver(boolean value);

    @Description("Wait for the pipeline to finish and print its summary (the Flex Template's launcher does not)")
    @Default.Boolean(true)
    boolean getWaitUntilFinish();

    void setWaitUntilFinish(boolean value);

    @Description("keyranger (the splittable DoFn, exactly once) or datastoreio (Beam's DatastoreIO read, "
            + "increment, write: the benchmark's peer)")
    @Default.String("keyranger")
    String getPipeline();

    void setPipeline(String value);

    @Description("datastoreio only: DatastoreIO's numQuerySplits (0: let it choose)")
    @Default.Integer(0)
    int getNumQuerySplits();

    void setNumQuerySplits(int value);

    @Hidden
    @Description("Tests: fault injection, as FaultInjector parses it (e.g. 0.1,0.1)")
    String getFaults();

    void setFaults(String value);

    @Hidden
    @Description("Tests: a worker throws after every this many commits")
    @Default.Integer(0)
    int getFailAfterCommits();

    void setFailAfterCommits(int value);

    @Hidden
    @Description("Tests: how many such throws at most")
    @Default.Integer(0)
    int getFailures();

    void setFailures(int value);
}
