package io.keyranger.executor.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.StringValue;
import io.keyranger.KeyRangerException;
import io.keyranger.job.JobInput;
import io.keyranger.mapper.MapperSpec;

/**
 * A job's input as its entity keeps it: a property of its own ({@link #PROPERTY}), apart from its mapper's, holding
 * the parameters that name it ({@link JobInput#parameters}: an import's file and format, a restore's moments,
 * selection and mode, a snapshot's read time) and what KeyRanger stamped of it. A job stored before its input had a
 * property of its own kept all of it in its mapper: it is read as it was, and resumes and reverts as any other.
 */
final class StoredInput {
    /** The job entity's property of its input, a JSON object; absent for a job that names none. */
    static final String PROPERTY = "input";

    private static final ObjectMapper JSON = new ObjectMapper();

    private StoredInput() {
    }

    /** Sets the job's mapper and input properties of {@code mapper}: the input's parameters in their own property. */
    static Entity.Builder store(Entity.Builder job, MapperSpec mapper) {
        ObjectNode rest = mapper.json().deepCopy();
        ObjectNode input = rest.objectNode();
        for (String name : JobInput.parameters(mapper)) {
            JsonNode value = rest.remove(name);
            if (value != null) {
                input.set(name, value);
            }
        }
        job.set("mapper", text(rest.toString()));
        return input.isEmpty() ? job : job.set(PROPERTY, text(input.toString()));
    }

    /** The mapper spec job entity {@code job} was started with: its mapper's, with its input's parameters back in. */
    static MapperSpec read(Entity job) {
        MapperSpec mapper = MapperSpec.parse(job.getString("mapper"));
        if (!job.contains(PROPERTY)) {
            return mapper; // stored with its input in its mapper
        }
        ObjectNode json = mapper.json().deepCopy();
        try {
            json.setAll((ObjectNode) JSON.readTree(job.getString(PROPERTY)));
        } catch (JsonProcessingException | ClassCastException e) {
            throw new KeyRangerException("Job " + job.getKey().getName() + " keeps an input that is not a JSON object ("
                    + e.getMessage() + "): it was not stored by KeyRanger. Start a new job instead.");
        }
        return MapperSpec.parse(json.toString());
    }

    private static StringValue text(String json) {
        return StringValue.newBuilder(json).setExcludeFromIndexes(true).build();
    }
}
