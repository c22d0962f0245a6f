package io.keyranger.support;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The layers of KeyRanger's packages, from the bottom up, over the app, the Beam runner ({@code beam/}) and the
 * benchmarks ({@code bench/}): each module's ArchitectureTest checks its own classes against this one list. A class
 * may use its own layer and the layers below it, never one above. A package named by no layer (or by two) fails the
 * test, so a new package is placed here on purpose.
 */
public final class Layers {
    /** One layer: a name for the report and the packages it holds (exact, or a subtree with {@code ..}). */
    public record Layer(String name, List<String> packages) {
        Layer(String name, String... packages) {
            this(name, List.of(packages));
        }

        boolean holds(String pkg) {
            return packages.stream().anyMatch(p -> PackageMatcher.of(p).matches(pkg));
        }
    }

    /** Bottom first. */
    public static final List<Layer> BOTTOM_UP = List.of(
            // values and helpers that know no Datastore: key order and ranges, file stores, prices, log redaction
            new Layer("base", "io.keyranger", "io.keyranger.keys", "io.keyranger.files", "io.keyranger.cost",
                    "io.keyranger.logging"),
            // the gateway: connections, sessions, retries
            new Layer("datastore", "io.keyranger.datastore"),
            // what reads, plans and edits over the gateway; connection profiles; the local emulator
            new Layer("over Datastore", "io.keyranger.query", "io.keyranger.sharding", "io.keyranger.counter",
                    "io.keyranger.edit", "io.keyranger.profile", "io.keyranger.emulator"),
            // what a job does to a page, and the formats a job reads and writes: undo records, Google's exports
            new Layer("mappers and formats", "io.keyranger.mapper", "io.keyranger.mapper.cel",
                    "io.keyranger.formats.."),
            // the public job API: what a job is, how it is watched and what it reports
            new Layer("job API", "io.keyranger.job"),
            // the engine, from its ground up to the orchestration in executor itself
            new Layer("engine: leases", "io.keyranger.executor.lease"),
            new Layer("engine: live tree", "io.keyranger.executor.range"),
            new Layer("engine: cells", "io.keyranger.executor.cells"),
            new Layer("engine: sources", "io.keyranger.executor.source"),
            new Layer("engine: store", "io.keyranger.executor.store"),
            new Layer("engine: local runner", "io.keyranger.executor.local"),
            new Layer("engine", "io.keyranger.executor"),
            // features over the engine
            new Layer("features", "io.keyranger.group", "io.keyranger.undo", "io.keyranger.backup",
                    "io.keyranger.dryrun"),
            // one report model (operations and price, a job's progress and outcome, dry runs) that every printer lays out
            new Layer("summaries", "io.keyranger.summary"),
            // one application layer for every front end
            new Layer("application", "io.keyranger.launch"),
            // what runs a list of jobs through it: versioned migrations
            new Layer("migrations", "io.keyranger.migrate"),
            // the front ends: the command line (with its hidden test hooks), the window, the demo data, Beam's runner
            new Layer("front ends", "io.keyranger.cli", "io.keyranger.testhooks", "io.keyranger.demo",
                    "io.keyranger.ui..", "io.keyranger.beam"),
            // the launcher that picks the command line or the window
            new Layer("app", "io.keyranger.app"),
            // the benchmarks and the production model server (bench/): nothing else uses them
            new Layer("benchmarks", "io.keyranger.bench..", "io.keyranger.model", "io.keyranger.sim"));

    private Layers() {
    }

    /** The main classes of the modules that hold {@code oneClassPerModule} (a folder or a jar each), tests left out. */
    public static JavaClasses mainClassesOf(Class<?>... oneClassPerModule) {
        List<URL> locations = new ArrayList<>();
        for (Class<?> c : oneClassPerModule) {
            locations.add(c.getProtectionDomain().getCodeSource().getLocation());
        }
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importUrls(locations);
    }

    /** Each package of {@code classes} that no layer holds, or more than one, with the layers that hold it. */
    public static Map<String, List<String>> misplacedPackages(JavaClasses classes) {
        TreeSet<String> packages = new TreeSet<>();
        for (JavaClass c : classes) {
            packages.add(c.getPackageName());
        }
        Map<String, List<String>> misplaced = new TreeMap<>();
        for (String pkg : packages) {
            List<String> holders = BOTTOM_UP.stream().filter(l -> l.holds(pkg)).map(Layer::name).toList();
            if (holders.size() != 1) {
                misplaced.put(pkg, holders);
            }
        }
        return misplaced;
    }

    /** The rule: every layer may be used only by the layers above it (and by itself). */
    public static LayeredArchitecture architecture() {
        LayeredArchitecture architecture = layeredArchitecture().consideringOnlyDependenciesInLayers()
                .withOptionalLayers(true);
        for (Layer layer : BOTTOM_UP) {
            architecture = architecture.layer(layer.name()).definedBy(layer.packages().toArray(String[]::new));
        }
        for (int i = 0; i < BOTTOM_UP.size(); i++) {
            String[] above = BOTTOM_UP.subList(i + 1, BOTTOM_UP.size()).stream().map(Layer::name)
                    .toArray(String[]::new);
            String name = BOTTOM_UP.get(i).name();
            architecture = above.length == 0 ? architecture.whereLayer(name).mayNotBeAccessedByAnyLayer()
                    : architecture.whereLayer(name).mayOnlyBeAccessedByLayers(above);
        }
        return architecture;
    }
}
