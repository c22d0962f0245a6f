package io.keyranger;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/** The core stays free of JavaFX so that the CLI, tests and a future distributed runner can drive it. */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.keyranger");

    private static final String[] CORE = {"io.keyranger", "io.keyranger.datastore..", "io.keyranger.emulator..",
        "io.keyranger.demo..", "io.keyranger.profile..", "io.keyranger.cli..", "io.keyranger.keys..",
        "io.keyranger.sharding..", "io.keyranger.executor..", "io.keyranger.mapper..", "io.keyranger.counter..",
        "io.keyranger.logging..", "io.keyranger.testhooks..", "io.keyranger.undo..",
        "io.keyranger.backup..", "io.keyranger.job..", "io.keyranger.group..", "io.keyranger.dryrun..",
        "io.keyranger.launch..", "io.keyranger.query..", "io.keyranger.edit..", "io.keyranger.cost..",
        "io.keyranger.files..", "io.keyranger.undo.."};

    @Test
    void everyPackageNamedHereExists() {
        for (String pkg : CORE) {
            String name = pkg.replace("..", "");
            assertThat(MAIN.stream().anyMatch(c -> c.getPackageName().equals(name))).as(name).isTrue();
        }
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.keyranger.(**)").should().beFreeOfCycles().check(MAIN);
    }

    /**
     * The executor's parts, from the bottom: a job's records ({@code job}), leases ({@code lease}), the one commit
     * protocol over the job's cells ({@code cells}), the files a job can read instead of a kind ({@code source}), the
     * records' store ({@code store}), the local runner ({@code local}),
     * and what drives them ({@code executor} itself: groups of kinds, imports, dry runs, Beam's view of a job). Each
     * uses only the parts below it.
     */
    @Test
    void theExecutorsPartsDependOnlyOnThePartsBelowThem() {
        String x = "io.keyranger.executor";
        noClasses().that().resideInAPackage(x + ".range").should().dependOnClassesThat()
                .resideInAnyPackage(x, x + ".lease", x + ".cells", x + ".store", x + ".local").check(MAIN);
        noClasses().that().resideInAPackage(x + ".lease").should().dependOnClassesThat()
                .resideInAnyPackage(x, x + ".range", x + ".cells", x + ".store", x + ".local").check(MAIN);
        noClasses().that().resideInAPackage(x + ".cells").should().dependOnClassesThat()
                .resideInAnyPackage(x, x + ".source", x + ".store", x + ".local").check(MAIN);
        noClasses().that().resideInAPackage(x + ".source").should().dependOnClassesThat()
                .resideInAnyPackage(x, x + ".store", x + ".local").check(MAIN);
        noClasses().that().resideInAPackage(x + ".store").should().dependOnClassesThat()
                .resideInAnyPackage(x, x + ".local").check(MAIN);
        noClasses().that().resideInAPackage(x + ".local").should().dependOnClassesThat()
                .resideInAPackage(x).check(MAIN);
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

    @Test
    void corePackagesNeverUseJavaFx() {
        ArchRule rule = noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("javafx..", "org.controlsfx..", "atlantafx..",
                        "org.kordamp.ikonli..", "io.keyranger.ui..", "io.keyranger.app..")
                .allowEmptyShould(false);
        rule.check(MAIN);
    }

    @Test
    void viewModelsNeverTouchControls() {
        noClasses().that().haveSimpleNameEndingWith("ViewModel")
                .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..")
                .check(MAIN);
    }
}
