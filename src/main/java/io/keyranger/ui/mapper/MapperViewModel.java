package io.keyranger.ui.mapper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.AtomicFiles;
import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Param;
import io.keyranger.mapper.SpecChecks;
import io.keyranger.mapper.ParameterException;
import io.keyranger.mapper.Template;
import io.keyranger.mapper.cel.ExpressionException;
import io.keyranger.sharding.TotalEstimate;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.KindTarget;
import io.keyranger.ui.common.StatusModel;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import io.keyranger.ui.run.RunViewModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.concurrent.Task;

/**
 * The Mapper tab: a template's form, the spec it makes, validation per field, saved specs and dry runs. It runs
 * jobs through the Run tab's view model, so both tabs show the same job.
 */
public final class MapperViewModel {
    private final TaskRunner tasks;
    private final StatusModel status;
    private final Consumer<String> errors;
    private final RunViewModel run;
    /** The kind selected in the browser: what a dry run maps, whatever the Run tab is running. */
    private final ObjectProperty<KindTarget> target = new SimpleObjectProperty<>();
    private final ObjectProperty<Template> template = new SimpleObjectProperty<>();
    private final Map<String, StringProperty> values = new LinkedHashMap<>();
    private final Map<String, ReadOnlyStringWrapper> fieldErrors = new LinkedHashMap<>();
    /** What the kind's properties say of a field as typed (a property it does not list, with the likely one), or "". */
    private final Map<String, ReadOnlyStringWrapper> fieldWarnings = new LinkedHashMap<>();
    private final ReadOnlyStringWrapper gqlWarning = new ReadOnlyStringWrapper("");
    /** The selected kind's properties as the server lists them (read off the FX thread by the main view model). */
    private List<PropertyInfo> properties = List.of();
    private boolean sampledProperties;
    private final StringProperty where = new SimpleStringProperty("");
    private final StringProperty gql = new SimpleStringProperty("");
    private volatile PriceTable prices = PriceTable.BUILT_IN;
    private final ReadOnlyStringWrapper json = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper specError = new ReadOnlyStringWrapper("");
    /** Whether the form makes a spec a job can run ({@link #isValid}): Run stays off otherwise. */
    private final ReadOnlyBooleanWrapper valid = new ReadOnlyBooleanWrapper();
    private final SimpleIntegerProperty sample = new SimpleIntegerProperty(20);
    private final DryRunResults results = new DryRunResults();
    private final ObservableList<String> propertyNames = FXCollections.observableArrayList();
    /** A copy of {@link #propertyNames} for the completion's background thread. */
    private volatile List<String> knownProperties = List.of();

    /** {@code status}: the status bar, where a dry run shows how far it got and can be cancelled. */
    public MapperViewModel(TaskRunner tasks, StatusModel status, Consumer<String> errors, RunViewModel run) {
        this.tasks = tasks;
        this.status = status;
        this.errors = errors;
        this.run = run;
        template.addListener((obs, old, t) -> resetFields(t));
        where.addListener((obs, old, now) -> refresh());
        gql.addListener((obs, old, now) -> refresh());
        target.addListener((obs, old, now) -> refresh());
        template.set(Mappers.template("increment"));
        propertyNames.addListener((ListChangeListener<String>) change ->
                knownProperties = List.copyOf(propertyNames));
    }

    private void resetFields(Template t) {
        values.clear();
        fieldErrors.clear();
        fieldWarnings.clear();
        if (t != null) {
            for (Param param : t.params()) {
                StringProperty value = new SimpleStringProperty(param.defaultValue() == null ? ""
                        : String.valueOf(param.defaultValue()));
                value.addListener((obs, old, now) -> refresh());
                values.put(param.name(), value);
                fieldErrors.put(param.name(), new ReadOnlyStringWrapper(""));
                fieldWarnings.put(param.name(), new ReadOnlyStringWrapper(""));
            }
        }
        results.clear();
        refresh();
    }

    /** Rebuilds the JSON and re-validates; errors go next to the field they name. */
    private void refresh() {
        fieldErrors.values().forEach(e -> e.set(""));
        fieldWarnings.values().forEach(w -> w.set(""));
        gqlWarning.set("");
        specError.set("");
        Template t = template.get();
        if (t == null) {
            json.set("");
            valid.set(false);
            return;
        }
        markMissingRequired(t);
        validateSpec();
        valid.set(isValid());
    }

    /** The spec as the template (and the CLI) validates it: a problem goes beside the field it names. */
    private void validateSpec() {
        try {
            ObjectNode spec = buildJson();
            json.set(spec.toPrettyString());
            results.clearUnlessOf(spec.toString()); // what shows answered another spec
            MapperSpec parsed = MapperSpec.parse(spec.toString());
            Mappers.validate(parsed);
            warnBesideFields(parsed);
        } catch (ExpressionException e) {
            String field = e.expression().startsWith("set.") ? "set" : e.expression();
            if (fieldErrors.containsKey(field)) {
                fieldErrors.get(field).set(e.getMessage());
            } else {
                specError.set(e.getMessage());
            }
        } catch (ParameterException e) {
            if (fieldErrors.containsKey(e.parameter())) {
                fieldErrors.get(e.parameter()).set(e.problem() + ".");
            } else {
                specError.set(e.getMessage());
            }
        } catch (KeyRangerException e) {
            specError.set(e.getMessage());
        }
    }

    /**
     * The kind's properties against the spec as typed ({@link SpecChecks#byField}), each warning beside its field:
     * in memory, from the properties already read; nothing while they are of another kind than the spec's.
     */
    private void warnBesideFields(MapperSpec spec) {
        KindTarget t = target.get();
        if (t == null || properties.isEmpty() || spec.query() != null && !spec.query().kind().equals(t.kind())) {
            return;
        }
        SpecChecks.byField(spec, t.kind(), properties, sampledProperties).forEach((field, warning) -> {
            if (field.equals("gql")) {
                gqlWarning.set(warning);
            } else if (fieldWarnings.containsKey(field)) {
                fieldWarnings.get(field).set(warning);
            }
        });
    }

    /**
     * The selected kind's properties, read off the FX thread; {@code sampled}: met in a sample of entities (a server
     * without {@code __property__}). The form's property fields complete them and are checked against them.
     */
    public void setProperties(List<PropertyInfo> list, boolean sampled) {
        properties = List.copyOf(list);
        sampledProperties = sampled;
        propertyNames.setAll(properties.stream().map(PropertyInfo::name).toList());
        refresh();
    }

    /** What the kind's properties say of the field as typed, e.g. "'balanse' is not among … Did you mean 'balance'?". */
    public ReadOnlyStringProperty fieldWarning(String name) {
        return fieldWarnings.get(name).getReadOnlyProperty();
    }

    /** What the kind's properties say of the GQL query's properties, or "". */
    public ReadOnlyStringProperty gqlWarningProperty() {
        return gqlWarning.getReadOnlyProperty();
    }

    /** Every required field left empty says so, not only the first the template's validation meets. */
    private void markMissingRequired(Template t) {
        for (Param param : t.params()) {
            StringProperty value = values.get(param.name());
            if (param.mustBeGiven() && value != null && value.get().isBlank()) {
                fieldErrors.get(param.name()).set("Required.");
            }
        }
    }

    /** The spec as JSON from the form; typed by each parameter's type. */
    ObjectNode buildJson() {
        Map<String, String> texts = new LinkedHashMap<>();
        values.forEach((name, value) -> texts.put(name, value.get()));
        ObjectNode spec = SpecForm.toJson(template.get(), texts, where.get());
        if (gql.get() != null && !gql.get().isBlank()) {
            spec.put("gql", gql.get().strip());
        }
        return spec;
    }

    /** Fills the form from a spec (an example or a loaded file). */
    public void load(String specJson) {
        try {
            MapperSpec spec = MapperSpec.parse(specJson);
            template.set(Mappers.template(spec.template()));
            for (Map.Entry<String, StringProperty> entry : values.entrySet()) {
                JsonNode node = spec.json().get(entry.getKey());
                entry.getValue().set(node == null || node.isNull() ? "" : node.isValueNode() ? node.asText()
                        : node.toString());
            }
            where.set(SpecForm.whereText(spec.json().get("where")));
            gql.set(spec.gql() == null ? "" : spec.gql());
        } catch (KeyRangerException e) {
            errors.accept(e.getMessage());
        }
    }

    public void loadFile(Path file) {
        try {
            load(Files.readString(file));
        } catch (IOException e) {
            errors.accept("Cannot read " + file + ": " + e.getMessage());
        }
    }

    public void saveFile(Path file) {
        try {
            AtomicFiles.writeJson(file, buildJson());
        } catch (RuntimeException e) {
            errors.accept(ErrorMessages.of(e));
        }
    }

    /** True while the form's spec is valid: what a Run button binds to. */
    public ReadOnlyBooleanProperty validProperty() {
        return valid.getReadOnlyProperty();
    }

    /** Whether the spec is valid now. */
    public boolean isValid() {
        return specError.get().isEmpty() && fieldErrors.values().stream().allMatch(e -> e.get().isEmpty())
                && template.get() != null;
    }

    /** Maps the first entities without writing and shows before and after. */
    public void dryRun() {
        KindTarget target = this.target.get();
        if (target == null) {
            errors.accept("Choose a kind on the left first.");
            return;
        }
        if (!isValid()) {
            results.say("Nothing was run: " + (specError.get().isEmpty() ? "fix the fields marked in red first."
                    : specError.get()));
            return;
        }
        String spec = buildJson().toString();
        int size = Math.max(1, sample.get());
        long known = target.countOrUnknown();
        TotalEstimate knownTotal = known < 0 ? null
                : new TotalEstimate(known, TotalEstimate.Method.EXACT_SCAN);
        results.say("Dry run on " + target.kind() + "…");
        MapperSpec parsed = MapperSpec.parse(spec);
        String kind = parsed.query() != null ? parsed.query().kind() : target.kind();
        String what = "Dry run on " + target.kind();
        Task<DryRunner.Result> task = Tasks.create("Dry run", context -> {
            context.progress(-1, -1, what + "…");
            return new DryRunner(target.session()).run(target.namespace(), kind, parsed, size,
                    kind.equals(target.kind()) && parsed.query() == null ? knownTotal : null,
                    (read, total) -> context.progress(-1, -1, String.format("%s: %,d read…", what, read)),
                    context::isCancelled);
        })
                .onSuccess(result -> {
                    if (spec.equals(buildJson().toString())) { // else the form changed meanwhile: this answers nothing
                        results.show(result, parsed, spec, prices);
                        run.startPrice().dryRunShown(target.namespace(), kind, parsed, result); // the same job's price to start it
                    }
                })
                .onError(e -> {
                    results.say("Dry run failed: " + ErrorMessages.of(e));
                    errors.accept(ErrorMessages.of(e));
                })
                .onCancelled(() -> results.say("Dry run cancelled: nothing was shown or written."))
                .build();
        status.track(task);
        tasks.run(task);
    }

    /** The kind selected in the browser, set by the main view model on every selection. */
    public ObjectProperty<KindTarget> targetProperty() {
        return target;
    }

    /** The selected kind's property names, offered in the form's property fields ({@link #setProperties}). */
    public ObservableList<String> propertyNames() {
        return propertyNames;
    }

    /**
     * The kind's properties to offer for what was typed into a property field: names that start with it first,
     * then names that contain it, ignoring case; nothing when it already names one exactly (a new name is welcome
     * too: the field takes any text).
     */
    public List<String> propertySuggestions(String typed) {
        List<String> names = knownProperties;
        String stripped = typed == null ? "" : typed.strip();
        String text = stripped.toLowerCase(Locale.ROOT);
        if (names.stream().anyMatch(name -> name.equalsIgnoreCase(stripped))) {
            return List.of();
        }
        List<String> starting = new ArrayList<>();
        List<String> containing = new ArrayList<>();
        for (String name : names) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.startsWith(text)) {
                starting.add(name);
            } else if (lower.contains(text)) {
                containing.add(name);
            }
        }
        starting.addAll(containing);
        return List.copyOf(starting);
    }

    /** Hands the spec to the Run tab's form. */
    public void sendToRun() {
        ObjectNode spec = buildJson();
        spec.remove("gql");
        run.handOver(spec.toString(), gql.get() == null ? "" : gql.get().strip());
    }

    public void setPrices(PriceTable prices) {
        this.prices = prices;
    }

    /** The GQL query the job runs over; blank for the selected kind. */
    public StringProperty gqlProperty() {
        return gql;
    }

    public ObjectProperty<Template> templateProperty() {
        return template;
    }

    public StringProperty value(String param) {
        return values.get(param);
    }

    public ReadOnlyStringProperty fieldError(String param) {
        return fieldErrors.get(param).getReadOnlyProperty();
    }

    public StringProperty whereProperty() {
        return where;
    }

    public ReadOnlyStringProperty jsonProperty() {
        return json.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty specErrorProperty() {
        return specError.getReadOnlyProperty();
    }

    public SimpleIntegerProperty sampleProperty() {
        return sample;
    }

    public ObservableList<DryRunner.Change> changes() {
        return results.changes();
    }

    public ReadOnlyStringProperty dryRunSummaryProperty() {
        return results.summaryProperty();
    }

    public List<MapperExamples.Example> examples() {
        return MapperExamples.all();
    }
}
