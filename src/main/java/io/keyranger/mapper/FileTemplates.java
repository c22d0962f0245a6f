package io.keyranger.mapper;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.keyranger.datastore.MixedArrays;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.files.LocalFileStore;
import io.keyranger.mapper.cel.PropertyTypes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/** The templates that move a kind to and from a local file: export writes one, import reads one. */
final class FileTemplates {
    private FileTemplates() {
    }

    /** The export template's formats: typed JSON lines, or a managed export that gcloud datastore import loads. */
    static final String MANAGED = "managed";

    static final Template EXPORT = new BaseTemplate("export",
            "Write every entity to a local file as typed JSON lines (lossless), or as a managed export that "
                    + "'gcloud datastore import' loads.", false, true,
            Param.required("file", Param.Type.FILE, "the .jsonl file to write (managed: the folder to write the "
                    + "export in)"),
            Param.choice("format", "jsonl, or managed (Google's export format)", "jsonl", List.of("jsonl", MANAGED))) {
        @Override
        PageMapper build(SpecReader r) {
            String location = r.string("file", null);
            String format = r.string("format", "jsonl");
            if (!format.equals("jsonl") && !format.equals(MANAGED)) {
                throw r.error("format", "must be jsonl or managed (got '" + format + "')");
            }
            if (LocalFileStore.isRemote(location)) {
                return exporter(name(), location); // a cloud store's (gs://...): the Beam runner writes it
            }
            Path file = Path.of(location).toAbsolutePath();
            if (MANAGED.equals(format)) {
                if (Files.isRegularFile(file) || file.getParent() == null
                        || !Files.isDirectory(file.getParent())) {
                    throw r.error("file", "must be a folder (new, or one to add an export to) in an existing "
                            + "directory for a managed export (" + file + ")");
                }
                return managedExporter(name(), file.toString());
            }
            if (file.getParent() == null || !Files.isDirectory(file.getParent())) {
                throw r.error("file", "must be in an existing directory (" + file.getParent() + " does not exist)");
            }
            if (Files.isDirectory(file)) {
                throw r.error("file", "must be a file, not a directory (" + file + " is a directory; add a file name "
                        + "such as " + file.resolve("export.jsonl") + ")");
            }
            if (Files.exists(file) && !Files.isWritable(file)) {
                throw r.error("file", "must be writable (" + file + " exists and cannot be written)");
            }
            if (!Files.isWritable(file.getParent())) {
                throw r.error("file", "must be in a directory this user can write (" + file.getParent() + " is not)");
            }
            return exporter(name(), file.toString());
        }
    };

    /** The export's mapper: each entity as a typed JSON line for the job's exactly-once parts. */
    private static PageMapper exporter(String name, String file) {
        return new FunctionMapper(name, true, false, 1, page -> new MapResult(List.of(), List.of(), 0, Map.of(),
                page.entities().stream().map(e -> EntityCodec.line(e))
                        .toList()), file);
    }

    /**
     * A managed export's mapper: as {@link #exporter}, counting the entities whose arrays mix indexed and unindexed
     * values, whose order the managed format does not keep ({@link MixedArrays}).
     */
    private static PageMapper managedExporter(String name, String file) {
        return new FunctionMapper(name, true, false, 1, page -> {
            long mixed = page.entities().stream().filter(MixedArrays::in).count();
            return new MapResult(List.of(), List.of(), 0, mixed == 0 ? Map.of() : Map.of(MixedArrays.NOT_KEPT, mixed),
                    page.entities().stream().map(e -> EntityCodec.line(e)).toList());
        }, file);
    }

    /** The modes of an import from a managed export: what it does with an entity that exists live. */
    static final List<String> MODES = List.of("overwrite", "skip-changed", "missing-only");
    /** The import's format of the database at a past moment: a restore from it reads no file. */
    static final String PAST = "past";
    /** The import's format of another database: a copy or restore from it reads no file. */
    static final String DATABASE = "database";
    /** The parameters that name another database. */
    private static final List<String> FROM = List.of("fromProject", "fromDatabase", "fromNamespace",
            "fromEmulatorHost", "fromCredentials", "fromServer", "fromKind", "sample", "withAncestors", "set", "remove",
            "unindexed");
    /** The parameters of a copy's transform: the transform template's. */
    private static final List<String> TRANSFORM = List.of("set", "remove", "unindexed");

    static final Template IMPORT = new BaseTemplate("import",
            "Upsert the entities of an export file (of the job's kind); export then import round-trips exactly. "
                    + "From a managed export (format managed) or the database's past (format past) it restores a "
                    + "selection: by query (select), by keys (keys), and with mode skip-changed or missing-only only "
                    + "what was not changed since.",
            true, true, Param.optional("file", Param.Type.FILE, "the .jsonl file an export wrote (managed: the "
                    + "export's folder or metadata file; past: none)", null),
            Param.choice("format", "jsonl, managed (Google's export format), past (the database as it was at "
                    + "asOf), or database (another database, named by the from parameters)", "jsonl",
                    List.of("jsonl", MANAGED, PAST, DATABASE)),
            Param.choice("mode", "managed or past (without until): what to do with an entity that exists live: "
                    + "overwrite it, skip it if it changed since the export or asOf (skip-changed), or restore only "
                    + "missing ones (missing-only)", "overwrite", MODES),
            Param.optional("select", Param.Type.STRING, "managed or past: a GQL query over the job's kind; only the "
                    + "entities it matches are restored (applied on the client: exports have no index)", null),
            Param.optional("keys", Param.Type.FILE, "managed or past: a file of keys, one KEY(...) a line; only they "
                    + "are restored", null),
            Param.optional("asOf", Param.Type.STRING, "past: the moment restored (RFC 3339); database: the "
                    + "moment the source is read at (absent: live, on a server that keeps no past)", null),
            Param.optional("until", Param.Type.STRING, "past only: undo a window that ends then (RFC 3339): only "
                    + "entities still as they were then go back; later writes are left alone", null),
            Param.optional("removeAdded", Param.Type.BOOLEAN, "past: delete what did not exist at asOf (with "
                    + "until, or mode overwrite); database: delete what the source does not hold (mode overwrite)",
                    false),
            Param.optional("fromProject", Param.Type.STRING, "database: the source's project", null),
            Param.optional("fromDatabase", Param.Type.STRING, "database: the source's named database (absent: the "
                    + "default one)", null),
            Param.optional("fromNamespace", Param.Type.STRING, "database: the source's namespace (absent: the "
                    + "default one)", null),
            Param.optional("fromEmulatorHost", Param.Type.STRING, "database: the source's emulator, host:port "
                    + "(absent: production)", null),
            Param.optional("fromCredentials", Param.Type.STRING, "database: the path of a service-account key file "
                    + "for the source (absent: Application Default Credentials)", null),
            Param.optional("fromServer", Param.Type.STRING, "database: the source's server: EMULATOR, "
                    + "FIRESTORE_EMULATOR, PRODUCTION or MODEL", null),
            Param.optional("fromKind", Param.Type.STRING, "database: the kind read in the source, written as the "
                    + "job's kind (--to-kind: renamed in keys and in key values of that kind)", null),
            Param.optional("sample", Param.Type.NUMBER, "database: the percentage of keys copied, chosen by a hash "
                    + "of each key's path (the same ones every run)", null),
            Param.optional("withAncestors", Param.Type.BOOLEAN, "database: bring each entity taken with its "
                    + "ancestors that the source holds (of any kind, transformed as it is), so that a subset is whole",
                    false),
            Param.optional("set", Param.Type.EXPRESSIONS, "database: as the transform template's, applied to each "
                    + "entity on the way (masking: keyed_hash, fake_name, fake_email, null)", null),
            Param.optional("remove", Param.Type.PROPERTIES, "database: properties left out of each entity copied",
                    null),
            Param.optional("unindexed", Param.Type.PROPERTIES, "database: properties 'set' writes excluded from "
                    + "indexes", null),
            Param.optional("skipBadLines", Param.Type.BOOLEAN, "skip the lines that are not exported entities, "
                    + "counting each, instead of refusing the file before anything is written", false)) {
        @Override
        public Source source() {
            return Source.FILE;
        }

        @Override
        public void validate(MapperSpec spec) {
            file(new SpecReader(spec, this, PropertyTypes.unknown()));
        }

        @Override
        PageMapper build(SpecReader r) {
            file(r);
            throw new KeyRangerException("'import' reads its file, not key ranges: it has no page mapper.");
        }

        private void file(SpecReader r) {
            String format = r.string("format", "jsonl");
            String mode = r.string("mode", "overwrite");
            if (!MODES.contains(mode)) {
                throw r.error("mode", "must be overwrite, skip-changed or missing-only (got '" + mode + "')");
            }
            if (PAST.equals(format)) {
                past(r, mode);
                return;
            }
            if (DATABASE.equals(format)) {
                database(r, mode);
                return;
            }
            requireNoSource(r);
            for (String pastOnly : List.of("asOf", "until", "removeAdded")) {
                if (r.node(pastOnly) != null && !r.node(pastOnly).isNull()) {
                    throw r.error(pastOnly, "applies to the database's past (\"format\": \"past\")");
                }
            }
            String location = r.string("file", null);
            if (location == null) {
                throw r.error("file", "is required: the .jsonl file an export wrote, or a managed export's folder");
            }
            // a cloud store's input (gs://...) is read by the Beam runner, which says so if it cannot reach it, and
            // refused by a local run with what to do (LocalFileStore); only a local one can be looked at here
            boolean local = !LocalFileStore.isRemote(location);
            Path file = local ? Path.of(location) : null;
            if (!MANAGED.equals(format)) {
                if (!format.equals("jsonl")) {
                    throw r.error("format", "must be jsonl, managed, past or database (got '" + format + "')");
                }
                for (String managedOnly : List.of("select", "keys")) {
                    if (r.string(managedOnly, null) != null) {
                        throw r.error(managedOnly, "applies to a managed export (\"format\": \"managed\")");
                    }
                }
                if (!mode.equals("overwrite")) {
                    throw r.error("mode", "applies to a managed export (\"format\": \"managed\"); a JSON lines "
                            + "import overwrites");
                }
                if (local && !Files.isRegularFile(file)) {
                    throw r.error("file", "must be an existing export file (" + file + " not found)");
                }
                return;
            }
            if (local && !Files.exists(file)) {
                throw r.error("file", "must be a managed export's folder or metadata file (" + file + " not found)");
            }
            keysFile(r);
        }

        private void keysFile(SpecReader r) {
            String keys = r.string("keys", null);
            if (keys != null && !LocalFileStore.isRemote(keys)
                    && !Files.isRegularFile(Path.of(keys))) {
                throw r.error("keys", "must be an existing file of keys (" + keys + " not found)");
            }
        }
    
        /**
         * A restore from the database's past: its moments, passed and in order, no file, and a combination that can
         * be decided: the one check of every runner (the command line, the app, Beam) before a job is created.
         */
        private void past(SpecReader r, String mode) {
            requireNoSource(r);
            if (r.string("file", null) != null) {
                throw r.error("file", "does not apply to the database's past (\"format\": \"past\"): it reads no "
                        + "file");
            }
            Instant asOf = moment(r, "asOf");
            if (asOf == null) {
                throw r.error("asOf", "is required with \"format\": \"past\": the moment restored (RFC 3339)");
            }
            Instant until = moment(r, "until");
            if (until != null && !until.isAfter(asOf)) {
                throw r.error("until", "(--until) must be after asOf (--as-of, " + asOf + "): the window of damage "
                        + "starts at asOf and ends at until");
            }
            Instant now = Instant.now();
            for (String name : List.of("asOf", "until")) {
                Instant moment = name.equals("asOf") ? asOf : until;
                if (moment != null && moment.isAfter(now)) {
                    throw r.error(name, "is in the future (" + moment + "): the past can be restored, not what "
                            + "is still to come");
                }
            }
            if (until != null && !mode.equals("overwrite")) {
                throw r.error("mode", "does not apply with until (--until), which decides each entity by its state "
                        + "then (as then: restored; written again after: left alone)");
            }
            if (until == null && r.bool("removeAdded", false) && !mode.equals("overwrite")) {
                throw r.error("removeAdded", "(--remove-added) deletes what did not exist at the time restored: it "
                        + "goes with mode overwrite, or with until (which leaves later writes alone); mode " + mode
                        + " keeps what exists live");
            }
            keysFile(r);
        }

        /**
         * A copy or restore from another database: its project (and server) named, no file and no until, a moment
         * that has passed, and removeAdded only with mode overwrite.
         */
        private void database(SpecReader r, String mode) {
            if (r.string("file", null) != null) {
                throw r.error("file", "does not apply to another database (\"format\": \"database\"): it reads no "
                        + "file");
            }
            if (r.string("until", null) != null) {
                throw r.error("until", "applies to the database's own past (\"format\": \"past\")");
            }
            String project = r.string("fromProject", null);
            if (project == null || project.isBlank()) {
                throw r.error("fromProject", "is required with \"format\": \"database\": the source's project");
            }
            String server = r.string("fromServer", null);
            if (server != null && !List.of("EMULATOR", "FIRESTORE_EMULATOR", "PRODUCTION", "MODEL").contains(server)) {
                throw r.error("fromServer", "must be EMULATOR, FIRESTORE_EMULATOR, PRODUCTION or MODEL (got '"
                        + server + "')");
            }
            boolean host = r.string("fromEmulatorHost", null) != null;
            if (server != null && host == server.equals("PRODUCTION")) {
                throw r.error("fromServer", server + " does not go with " + (host ? "an emulator host"
                        : "no fromEmulatorHost"));
            }
            Instant asOf = moment(r, "asOf");
            if (asOf != null && asOf.isAfter(Instant.now())) {
                throw r.error("asOf", "is in the future (" + asOf + "): a source is read as it is or was");
            }
            if (r.bool("removeAdded", false) && r.string("fromKind", null) != null) {
                throw r.error("removeAdded", "(--remove-added) does not go with a kind renamed (--to-kind) yet: "
                        + "what the source lacks is found over its ranges, which the renamed kind's keys do not "
                        + "follow");
            }
            if (r.bool("removeAdded", false) && !mode.equals("overwrite")) {
                throw r.error("removeAdded", "(--remove-added) deletes what the source does not hold, so that the "
                        + "target ends equal to it: it goes with mode overwrite; mode " + mode + " keeps what "
                        + "exists live");
            }
            if (r.node("sample") != null && !r.node("sample").isNull()) {
                double percent = r.number("sample").doubleValue();
                if (!(percent > 0 && percent <= 100)) {
                    throw r.error("sample", "(--sample) must be a percentage above 0 and at most 100 (got "
                            + r.node("sample") + ")");
                }
            }
            MapperSpec transform = transform(r.spec());
            if (transform != null) {
                Mappers.template("transform").validate(transform);
            }
            keysFile(r);
        }

        private void requireNoSource(SpecReader r) {
            for (String name : FROM) {
                if (r.node(name) != null && !r.node(name).isNull()) {
                    throw r.error(name, "applies to another database (\"format\": \"database\")");
                }
            }
        }

        private Instant moment(SpecReader r, String name) {
            String text = r.string(name, null);
            if (text == null) {
                return null;
            }
            try {
                return OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeParseException e) {
                throw r.error(name, "must be an RFC 3339 time such as 2026-11-27T10:15:00Z (got '" + text + "')");
            }
        }
};

    /**
     * The transform a copy from another database applies to each entity on the way ({@code spec}'s {@code set},
     * {@code remove} and {@code unindexed}, as the transform template takes them), or null when it names none.
     */
    static MapperSpec transform(MapperSpec spec) {
        ObjectNode json = JsonNodeFactory.instance.objectNode().put("template", "transform");
        for (String name : TRANSFORM) {
            if (spec.json().hasNonNull(name)) {
                json.set(name, spec.json().get(name));
            }
        }
        return json.size() == 1 ? null : MapperSpec.parse(json.toString());
    }
}
