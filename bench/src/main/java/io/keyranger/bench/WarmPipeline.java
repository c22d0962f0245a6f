package io.keyranger.bench;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The main of a Beam strategy's JVM when the bench warms up: runs the warm-up pipeline, untimed and quiet, then the
 * timed one, both through {@code BeamMain.run} in this one JVM, so that the timed pipeline meets a JVM that has
 * compiled its code, as the local strategies' warm-up gives theirs. Its arguments are the warm-up's, {@value #THEN},
 * the timed run's; between them it says {@link #WARMED} and waits for a line on its input, so that the bench counts
 * the timed run's calls alone. It runs with the Beam jar first on the class path and calls it by reflection: the
 * bench is built without Beam.
 */
public final class WarmPipeline {
    /** Separates the warm-up's arguments from the timed run's. */
    static final String THEN = "--then";
    /** The line that says the warm-up is done; the timed run starts when a line comes back on standard input. */
    static final String WARMED = "Warm-up pipeline done; waiting for the bench to start the timed one.";

    private WarmPipeline() {
    }

    public static void main(String[] args) throws ReflectiveOperationException {
        int then = Arrays.asList(args).indexOf(THEN);
        if (then < 0) {
            System.err.println("WarmPipeline: the warm-up's arguments, " + THEN + ", the timed run's");
            System.exit(2);
        }
        Method run = Class.forName(BeamBench.MAIN).getMethod("run", String[].class, PrintStream.class,
                PrintStream.class);
        ByteArrayOutputStream warmOutput = new ByteArrayOutputStream();
        PrintStream warm = new PrintStream(warmOutput, true, StandardCharsets.UTF_8);
        int exit = invoke(run, Arrays.copyOfRange(args, 0, then), warm, warm);
        if (exit != 0) { // what the warm-up said, so that its failure names its cause
            System.out.print(warmOutput.toString(StandardCharsets.UTF_8));
            System.out.println("keyranger-beam: the warm-up pipeline failed (exit " + exit + ")");
            System.exit(exit);
        }
        System.out.println(WARMED); // the bench counts the server's calls from here
        System.out.flush();
        try {
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            System.exit(1);
        }
        System.exit(invoke(run, Arrays.copyOfRange(args, then + 1, args.length), System.out, System.err));
    }

    private static int invoke(Method run, String[] args, PrintStream out, PrintStream err)
            throws ReflectiveOperationException {
        try {
            return (int) run.invoke(null, args, out, err);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** The command's arguments after the class path: this class, the warm-up's arguments, then the timed run's. */
    static List<String> arguments(List<String> warmUp, List<String> timed) {
        List<String> all = new ArrayList<>(List.of(WarmPipeline.class.getName()));
        all.addAll(warmUp);
        all.add(THEN);
        all.addAll(timed);
        return all;
    }
}
