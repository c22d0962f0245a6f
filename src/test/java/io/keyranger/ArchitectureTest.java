package io.keyranger;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameStartingWith;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClasses;
import io.keyranger.executor.Engine;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.launch.Jobs;
import io.keyranger.support.Layers;
import org.junit.jupiter.api.Test;

/**
 * The packages as layers (see {@link Layers}: each package in exactly one, each layer using only those below it), and
 * the rules inside a layer: the core stays free of JavaFX so that the CLI, tests and a future distributed runner can
 * drive it; the window uses the application layer and the core's public types, never the runner's internals.
 */
class ArchitectureTest {
    private static final JavaClasses MAIN = Layers.mainClassesOf(KeyRangerException.class);

    @Test
    void everyPackageSitsInExactlyOneLayer() {
        assertThat(Layers.misplacedPackages(MAIN)).as("packages with no layer, or two").isEmpty();
    }

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        Layers.architecture().check(MAIN);
    }

    /**
     * Nor between folders: what a folder holds sits in one layer, so the formats the engine writes (undo records,
     * Google's exports) have a folder of their own below it, apart from the features above it that revert and compare.
     */
    @Test
    void noFolderCycles() {
        slices().matching("io.keyranger.(*)..").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.keyranger.(**)").should().beFreeOfCycles().check(MAIN);
    }

    /**
     * The live tree ({@code executor.range}) is plain data over keys, and the leases ({@code executor.lease}) are
     * records in Datastore: the two ground layers of the engine know nothing of each other.
     */
    @Test
    void theLiveTreeAndTheLeasesAreIndependent() {
        noClasses().that().resideInAPackage("io.keyranger.executor.range").should().dependOnClassesThat()
                .resideInAPackage("io.keyranger.executor.lease").check(MAIN);
    }
    /**
     * The test hooks (fault injection, a gate that holds commits) ship in the app only behind the command line's hidden
     * options, because the kill -9, take-over and fault suites drive the real jar in a child process; nothing else of
     * the product path uses them. The benchmarks and the production model server live in their own module
     * ({@code bench/}, keyranger-bench.jar), so the app holds none of them.
     */
    @Test
    void theProductPathUsesNeitherTestHooksNorBenchmarks() {
        noClasses().that().resideOutsideOfPackages("io.keyranger.testhooks..", "io.keyranger.cli..")
                .should().dependOnClassesThat().resideInAPackage("io.keyranger.testhooks..").check(MAIN);
        assertThat(MAIN.stream().map(c -> c.getPackageName())
                .filter(p -> p.startsWith("io.keyranger.bench") || p.startsWith("io.keyranger.model")))
                .as("benchmark packages in the app").isEmpty();
    }

    @Test
    void theUiNeverUsesTheCommandLine() {
        noClasses().that().resideInAPackage("io.keyranger.ui..")
                .should().dependOnClassesThat().resideInAPackage("io.keyranger.cli..")
                .check(MAIN);
    }

    /**
     * The window ({@code ui}, and {@code app} that starts it) goes through the application layer and the core's public
     * types (the job API, the features' values); the engine ({@code executor} and its parts: leases, cells, sources, the
     * store, the live tree, the local runner) stays behind them.
     */
    @Test
    void theWindowNeverUsesTheEngine() {
        noClasses().that().resideInAnyPackage("io.keyranger.ui..", "io.keyranger.app..")
                .should().dependOnClassesThat().resideInAnyPackage("io.keyranger.executor..")
                .check(MAIN);
    }

    /**
     * The command line, like the window, goes through the application layer and the core's public types; only its
     * hidden test options name the engine, to install a seam.
     */
    @Test
    void theCommandLineNeverUsesTheEngine() {
        noClasses().that().resideInAPackage("io.keyranger.cli..").and()
                .doNotHaveFullyQualifiedName("io.keyranger.cli.TestHooks")
                .should().dependOnClassesThat().resideInAnyPackage("io.keyranger.executor..")
                .check(MAIN);
    }

    /**
     * The engine's seams (a hook before each commit, a wrapper of the mapper, the first ranges, pages by offset) are
     * for tests and benchmarks: in the product only the command line's hidden test options install one.
     */
    @Test
    void onlyTheHiddenTestOptionsInstallEngineSeams() {
        DescribedPredicate<JavaCall<?>> makesOrInstallsASeam = target(owner(type(EngineSeams.class)))
                .and(target(nameStartingWith("with")))
                .or(target(owner(type(Jobs.class))).and(target(name("seams"))));
        noClasses().that().resideOutsideOfPackage("io.keyranger.executor..").and()
                .doNotHaveFullyQualifiedName("io.keyranger.cli.TestHooks")
                .should().callCodeUnitWhere(makesOrInstallsASeam).check(MAIN);
        noClasses().that().resideOutsideOfPackage("io.keyranger.executor..").and()
                .doNotHaveFullyQualifiedName(Jobs.class.getName())
                .should().callCodeUnitWhere(target(owner(type(Engine.class))).and(target(name("seams"))))
                .check(MAIN);
    }

    /** Everything but the window and its launcher is plain Java: no JavaFX, no UI library, no view. */
    @Test
    void nothingOutsideTheWindowUsesJavaFx() {
        noClasses().that().resideOutsideOfPackages("io.keyranger.ui..", "io.keyranger.app..")
                .should().dependOnClassesThat().resideInAnyPackage("javafx..", "org.controlsfx..", "atlantafx..",
                        "org.kordamp.ikonli..", "io.keyranger.ui..", "io.keyranger.app..")
                .check(MAIN);
    }

    @Test
    void viewModelsNeverTouchControls() {
        noClasses().that().haveSimpleNameEndingWith("ViewModel")
                .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..")
                .check(MAIN);
    }
}
