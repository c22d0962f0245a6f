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
 * The main of a Beam strategy's JVM: runs the pipelines the bench sends it, one after another, each through
 * {@code BeamMain.run} in this one JVM, until its input ends. So a pipeline JVM lives as long as the bench's own and
 * has the same history: the bench's local strategies run in a JVM that every earlier round has compiled, and so does
 * the pipeline of a later round. Each request is one line on standard input, its fields separated by tabs: {@link #WARM}
 * or {@link #RUN}, then the pipeline's arguments. A warm-up runs quiet (its output is shown only if it fails); a timed
 * run prints what {@code keyranger-beam} prints. Each ends with a line of its own, {@link #ENDED} and the exit code, so
 * that the bench counts the timed run's calls alone. It runs with the Beam jar first on the class path and calls it
 * by reflection: the bench is built without Beam.
 */
public final class PipelineHost {
    /** A request's first field: an untimed warm-up pipeline. */
    static final String WARM = "warm";
    /** A request's first field: the timed pipeline. */
    static final String RUN = "run";
    /** The start of the line that ends each request, followed by its exit code. */
    static final String ENDED = "Pipeline host: request ended, exit ";

    private PipelineHost() {
    }

    public static void main(String[] args) throws ReflectiveOperationException, IOException {
        Method run = Class.forName(BeamBench.MAIN).getMethod("run", String[].class, PrintStream.class,
                PrintStream.class);
        BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String request = requests.readLine(); request != null; request = requests.readLine()) {
            List<String> fields = Arrays.asList(request.split("\t"));
            boolean warm = fields.get(0).equals(WARM);
            String[] arguments = fields.subList(1, fields.size()).toArray(new String[0]);
            int exit;
            if (warm) {
                ByteArrayOutputStream warmOutput = new ByteArrayOutputStream();
                PrintStream quiet = new PrintStream(warmOutput, true, StandardCharsets.UTF_8);
                exit = invoke(run, arguments, quiet, quiet);
                if (exit != 0) { // what the warm-up said, so that its failure names its cause
                    System.out.print(warmOutput.toString(StandardCharsets.UTF_8));
                    System.out.println("keyranger-beam: the warm-up pipeline failed (exit " + exit + ")");
                }
            } else {
                exit = invoke(run, arguments, System.out, System.err);
            }
            System.err.flush();
            System.out.println(ENDED + exit);
            System.out.flush();
        }
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

    /** A request's line: its kind ({@link #WARM} or {@link #RUN}), then the pipeline's arguments. */
    static String request(String kind, List<String> arguments) {
        List<String> fields = new ArrayList<>(List.of(kind));
        for (String argument : arguments) {
            if (argument.contains("\t") || argument.contains("\n")) {
                throw new IllegalArgumentException("A pipeline argument with a tab or line break: " + argument);
            }
            fields.add(argument);
        }
        return String.join("\t", fields);
    }
}
