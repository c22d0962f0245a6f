package io.keyranger.beam;

import io.keyranger.datastore.Session;
import io.keyranger.executor.PipelineJobs;
import io.keyranger.job.JobStatus;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * The last step of a pipeline launched without waiting (a Flex Template on Dataflow), once every range is processed:
 * records the job's end in its {@code _KeyRangerJob} entity (DONE when every cell is), so that job still ends for
 * {@code keyranger jobs} and the app; an export's recorded parts are joined into its file first, once. A launcher that
 * waits records the end itself, with no such step. Outputs the status.
 */
final class FinishJobFn extends DoFn<Long, String> {
    private final JobConfig config;
    private final long startedMillis;

    FinishJobFn(JobConfig config, long startedMillis) {
        this.config = config;
        this.startedMillis = startedMillis;
    }

    @ProcessElement
    public void process(@Element Long applied, OutputReceiver<String> out) {
        Session session = config.session();
        JobStatus status = PipelineJobs.finish(session.datastore(), session.order(), config.jobId(),
                Math.max(0, System.currentTimeMillis() - startedMillis), config.parts());
        out.output(status.name());
    }
}
