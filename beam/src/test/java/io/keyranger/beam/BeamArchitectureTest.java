package io.keyranger.beam;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.keyranger.KeyRangerException;
import io.keyranger.support.Layers;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The Beam runner in the app's layers ({@link Layers}): a front end over the engine, the job API and the features, like
 * the command line and the window, and apart from them.
 */
class BeamArchitectureTest {
    private static final JavaClasses BEAM = Layers.mainClassesOf(BeamMain.class);
    private static final JavaClasses WITH_THE_APP = Layers.mainClassesOf(BeamMain.class, KeyRangerException.class);

    @Test
    void everyPackageOfTheModuleSitsInExactlyOneLayer() {
        assertThat(BEAM).isNotEmpty();
        assertThat(Layers.misplacedPackages(BEAM)).as("packages with no layer, or two").isEmpty();
    }

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        Layers.architecture().check(WITH_THE_APP);
    }

    @Test
    void beamNeverUsesTheWindowOrTheBenchmarks() {
        noClasses().that().resideInAPackage("io.keyranger.beam..").should().dependOnClassesThat()
                .resideInAnyPackage("io.keyranger.ui..", "io.keyranger.app..", "io.keyranger.bench..",
                        "io.keyranger.model..", "io.keyranger.sim..")
                .check(BEAM);
    }

    /** Beam's runner prints and injects faults through the core, not through the app's command line. */
    @Test
    @Disabled("issue 44: enable once these are gone. Today: beam.BeamMain uses cli.DryRunPrinter (to print a dry"
            + " run); beam.KeyRangeFn uses testhooks.FaultInjector (its --faults option)")
    void beamNeverUsesTheCommandLineOrItsTestHooks() {
        noClasses().that().resideInAPackage("io.keyranger.beam..").should().dependOnClassesThat()
                .resideInAnyPackage("io.keyranger.cli..", "io.keyranger.testhooks..")
                .check(BEAM);
    }
}
