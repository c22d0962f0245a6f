package io.keyranger.beam;

import java.util.Arrays;

/**
 * The Flex Template's main: Dataflow's launcher passes the template's parameters as {@code --name=value}; this builds
 * the pipeline, submits it, and returns without waiting for it (the launcher VM is short-lived). Follow the job with
 * {@code keyranger jobs} or the app: its cells and sharded counters are in the same database as the data.
 */
public final class FlexTemplateMain {
    private FlexTemplateMain() {
    }

    public static void main(String[] args) {
        System.exit(BeamMain.run(launchArgs(args), System.out, System.err));
    }

    /** The template's arguments, told not to wait for the pipeline. */
    static String[] launchArgs(String[] args) {
        String[] all = Arrays.copyOf(args, args.length + 1);
        all[args.length] = "--waitUntilFinish=false";
        return all;
    }
}
