package io.keyranger.testhooks;

import io.keyranger.mapper.PageMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The hidden {@code run --hold-after-chunks N}: lets a test hold a job in a child process at a known point (every
 * worker inside a chunk, its transaction open) and then kill, freeze or release it, instead of polling for progress.
 * It announces "keyranger: held" on standard error; a line (or the end) on standard input releases it.
 */
public final class HoldHook {
    /** What a held child prints. */
    public static final String HELD = "keyranger: held";

    private HoldHook() {
    }

    public static PageMapper hold(PageMapper mapper, int chunks, PrintWriter err) {
        GatedMapper[] gate = new GatedMapper[1];
        gate[0] = new GatedMapper(mapper, chunks, () -> {
            err.println(HELD + " after " + chunks + " chunks");
            err.flush();
            Thread release = new Thread(() -> {
                try {
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                } catch (IOException e) {
                    // stdin closed: release
                }
                gate[0].release();
            }, "keyranger-hold-release");
            release.setDaemon(true);
            release.start();
        });
        return gate[0];
    }
}
