package io.keyranger.cli;

import picocli.CommandLine.Option;

/**
 * How a job fans out and how fast it may go: the options {@code run} and {@code revert} share. The defaults are the
 * fields' own, so that they hold whether picocli builds this (an option was given) or not.
 */
final class JobSize {
    @Option(names = "--shards", paramLabel = "N", description = "Planned ranges (default: 16).")
    int shards = 16;

    @Option(names = "--workers", paramLabel = "N", description = "Ranges at once (default: 8).")
    int workers = 8;

    @Option(names = "--page-size", paramLabel = "N", description = "Keys per page (default: 200).")
    int pageSize = 200;

    @Option(names = "--qps", paramLabel = "N",
            description = "Most entity operations per second, ramping up from 500 (default: no limit).")
    int qps;
}
