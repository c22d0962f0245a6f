package io.keyranger.ui.run;

import io.keyranger.job.JobIds;
import io.keyranger.KeyRangerException;
import io.keyranger.job.JobSpec;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import io.keyranger.ui.common.KindTarget;
import io.keyranger.ui.common.Specs;
import java.util.Set;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.Bindings;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** The Run tab's form: the mapper spec and how the job runs (planned ranges, workers, page size, rate limit). */
public final class JobForm {
    private final ObservableList<String> availableKinds =
            FXCollections.observableArrayList();

    /** The kinds of the browsed namespace, offered for a job over several kinds. */
    public ObservableList<String> availableKinds() {
        return availableKinds;
    }

    private final StringProperty mapperJson = new SimpleStringProperty(Specs.text(Specs.template("count")));
    private final ObservableValue<String> mapperSummary = mapperJson.map(JobForm::describe);
    private final ObservableValue<String> templateName = mapperJson.map(JobForm::templateOf);
    private final ObservableValue<String> mapperProblem = mapperJson.map(JobForm::problemOf);
    private final StringProperty gql = new SimpleStringProperty("");
    private final ObservableList<String> kinds = FXCollections.observableArrayList();
    private final IntegerProperty shards = new SimpleIntegerProperty(16);
    private final IntegerProperty workers = new SimpleIntegerProperty(8);
    private final IntegerProperty pageSize = new SimpleIntegerProperty(200);
    private final IntegerProperty qps = new SimpleIntegerProperty(0);
    /**
     * The job handed over whole (a restore from the Backups tab), or null: while the form's mapper is its, Start runs
     * it under its own id; a change of the mapper makes the form's job a new one again.
     */
    private JobSpec handedOver;

    {
        mapperJson.addListener((obs, was, now) -> {
            if (handedOver != null && !sameMapper(handedOver, now)) {
                handedOver = null;
            }
        });
    }

    private static boolean sameMapper(JobSpec job, String json) {
        try {
            return MapperSpec.parse(json).json().equals(job.mapper().json());
        } catch (KeyRangerException notValid) {
            return false;
        }
    }

    /** Takes {@code job} whole: its mapper and settings shown, and its id kept for Start ({@link #spec}). */
    void handOver(JobSpec job) {
        handedOver = null;
        gql.set("");
        mapperJson.set(job.mapper().json().toString());
        showSettingsOf(job);
        handedOver = job;
    }

    /** The job handed over was started: Start runs a new job from now on. */
    void handedOverStarted() {
        handedOver = null;
    }

    /** A new job on {@code target} from the form; a {@link io.keyranger.KeyRangerException} says what is wrong. */
    JobSpec spec(KindTarget target) {
        JobSpec handed = handedOver;
        if (handed != null && handed.kind().equals(target.kind()) && handed.namespace().equals(target.namespace())
                && (gql.get() == null || gql.get().isBlank())) {
            return new JobSpec(handed.jobId(), handed.namespace(), handed.kind(), handed.mapper(), shards.get(),
                    workers.get(), pageSize.get(), qps.get());
        }
        MapperSpec mapper = MapperSpec.parse(mapperJson.get());
        if (gql.get() != null && !gql.get().isBlank()) {
            mapper = mapper.withGql(gql.get().strip());
        }
        Mappers.template(mapper.template()).validate(mapper);
        String kind = mapper.query() != null ? mapper.query().kind() : target.kind();
        return new JobSpec(JobIds.newJobId(kind), target.namespace(), kind, mapper,
                shards.get(), workers.get(), pageSize.get(), qps.get());
    }

    /**
     * A new job over the checked kinds, as a group spec (its kind names them all); a
     * {@link io.keyranger.KeyRangerException} says what is wrong.
     */
    JobSpec groupSpec(KindTarget target) {
        MapperSpec mapper = MapperSpec.parse(mapperJson.get());
        if (gql.get() != null && !gql.get().isBlank()) {
            throw new KeyRangerException("A GQL query reads one kind: clear the query or uncheck the kinds.");
        }
        Mappers.validate(mapper);
        if (Mappers.template(mapper.template()).source() != Template.Source.KEY_RANGES) {
            throw new KeyRangerException("'" + mapper.template() + "' reads a file into one kind: "
                    + "uncheck the kinds.");
        }
        return new JobSpec(JobIds.newJobId(kinds.get(0) + "-and-more"), target.namespace(),
                String.join(",", kinds), mapper, shards.get(), workers.get(), pageSize.get(), qps.get());
    }

    /**
     * A mapper spec in words: its template and parameters ("increment · property balance · amount 10"), or what is
     * wrong with its JSON.
     */
    /** The parameters that name a file (an export's, an import's, a keys file). */
    private static final Set<String> FILES = Set.of("file", "keys");

    static String describe(String json) {
        try {
            MapperSpec spec = MapperSpec.parse(json);
            StringBuilder text = new StringBuilder(spec.template());
            spec.json().fields().forEachRemaining(field -> {
                if (!field.getKey().equals("template")) {
                    String value = field.getValue().isTextual() ? field.getValue().asText()
                            : field.getValue().toString();
                    // a file's name, not its whole path (the JSON holds it): a line that wraps, not one cut short
                    boolean path = FILES.contains(field.getKey()) && field.getValue().isTextual();
                    text.append(" · ").append(field.getKey()).append(' ')
                            .append(path ? value.substring(value.lastIndexOf('/') + 1) : value);
                }
            });
            return text.toString();
        } catch (KeyRangerException e) {
            return "The mapper's JSON is not valid: " + e.getMessage();
        }
    }

    /**
     * What the template refuses in a spec whose JSON reads (a required parameter missing, a wrong type), in the words
     * the CLI gives for the same spec ({@link Mappers#validate}); "" when it is valid, or when its JSON is not (the
     * summary says that).
     */
    static String problemOf(String json) {
        MapperSpec spec;
        try {
            spec = MapperSpec.parse(json);
        } catch (KeyRangerException e) {
            return "";
        }
        try {
            Mappers.validate(spec);
            return "";
        } catch (KeyRangerException e) {
            return e.getMessage();
        }
    }

    /** Whether the mapper spec is one a job can start with: its JSON reads and its template takes its parameters. */
    static boolean isValid(String json) {
        return templateOf(json) != null && problemOf(json).isEmpty();
    }

    /** True while the mapper spec cannot start a job ({@link #isValid}): Start stays off, as for a bad number. */
    BooleanBinding mapperInvalid() {
        return Bindings.createBooleanBinding(() -> !isValid(mapperJson.get()), mapperJson);
    }

    /** What the template refuses in the spec as it is now, or "" ({@link #problemOf}): said beside the mapper. */
    public ObservableValue<String> mapperProblem() {
        return mapperProblem;
    }

    /** The spec's template name, or null while its JSON is not valid. */
    private static String templateOf(String json) {
        try {
            return MapperSpec.parse(json).template();
        } catch (KeyRangerException e) {
            return null;
        }
    }

    /** The template of the spec as it is now (a restore's "import", say), or null while its JSON is not valid. */
    public ObservableValue<String> templateName() {
        return templateName;
    }

    /** Starts the spec over with only this template. */
    public void chooseTemplate(String name) {
        mapperJson.set(Specs.text(Specs.template(name)));
    }

    /**
     * The backup that runs before {@code job} when the user asks to back up first: a managed export of the job's kind
     * to its backup folder ({@link Specs#backup}), run with the form's settings. The form itself is left as it is.
     */
    JobSpec backupBefore(JobSpec job) {
        MapperSpec mapper = MapperSpec.parse(Specs.text(Specs.backup(job.kind())));
        Mappers.template(mapper.template()).validate(mapper);
        return new JobSpec(JobIds.newJobId(job.kind()), job.namespace(), job.kind(), mapper,
                shards.get(), workers.get(), pageSize.get(), qps.get());
    }

    /**
     * Shows how stored job {@code spec} runs (its shards, workers, page size and rate limit): a resumed job runs with
     * its own settings, not the form's, and the settings bar says so.
     */
    void showSettingsOf(JobSpec spec) {
        shards.set(spec.shards());
        workers.set(spec.workers());
        pageSize.set(spec.pageSize());
        qps.set(spec.qps());
    }

    /** The mapper spec in words, as {@link #describe} puts it: what the Run tab shows in place of its JSON. */
    public ObservableValue<String> mapperSummary() {
        return mapperSummary;
    }

    /** The mapper spec, which the Mapper tab also fills. */
    public StringProperty mapperJsonProperty() {
        return mapperJson;
    }

    /** The kinds checked for one job over several kinds; empty for the selected kind alone. */
    public ObservableList<String> kinds() {
        return kinds;
    }

    /** The GQL query the job runs over (blank: the selected kind), which the Mapper tab also fills. */
    public StringProperty gqlProperty() {
        return gql;
    }

    public IntegerProperty shardsProperty() {
        return shards;
    }

    public IntegerProperty workersProperty() {
        return workers;
    }

    public IntegerProperty pageSizeProperty() {
        return pageSize;
    }

    public IntegerProperty qpsProperty() {
        return qps;
    }
}
